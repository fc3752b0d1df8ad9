// The shares, U test and share change records (theory/shares_record.h): every part
// of a measured profile's shares round-trips through JSON with the regions its length has, and
// every such block in every result shipped in docs/data reads back and writes out the same bytes
// (a bad field refused by its dotted path: tests/core/field_tables_test.cc).
#include "posbias/theory/shares_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../shipped_records.h"

namespace posbias {
namespace {

// Three seeds' profiles of `length` positions: a U with a little noise per seed.
SharesOverSeeds shares_of(std::int64_t length) {
  std::vector<std::vector<double>> profiles;
  for (int seed = 0; seed < 3; ++seed) {
    std::vector<double> p;
    for (std::int64_t i = 0; i < length; ++i) {
      const double x = static_cast<double>(i) / static_cast<double>(length - 1) - 0.5;
      p.push_back(0.01 + x * x + 0.001 * seed * static_cast<double>(i % 3));
    }
    profiles.push_back(p);
  }
  return shares_over_seeds(profiles);
}

TEST(SharesRecordFields, EveryPartRoundTripsThroughJson) {
  for (std::int64_t length : {20, 50}) {
    const SharesOverSeeds s = shares_of(length);
    const nlohmann::json shares = to_json(shares_record(s));
    EXPECT_EQ(shares.contains("middle"), length >= 40) << length;
    EXPECT_EQ(shares.contains("unavailable"), length < 40) << length;
    EXPECT_EQ(shares["primacy"]["values"].size(), 3u);
    EXPECT_EQ(shares["regions"]["recency"],
              (std::vector<std::int64_t>{length - 1 - kEndWindow, length - 2}));
    EXPECT_EQ(to_json(FieldCodec<SharesRecord>::read(shares, "shares field")).dump(),
              shares.dump());
    const nlohmann::json u = to_json(u_test_record(s.u));
    EXPECT_EQ(u.contains("middle_vs_primacy"), length >= 40) << length;
    EXPECT_EQ(to_json(FieldCodec<UTestRecord>::read(u, "u_test field")).dump(), u.dump());
    ShareChangeRecord c = share_change_record(s, shares_of(length));
    c.from_step = 0;
    c.to_step = 100;
    const nlohmann::json change = to_json(c);
    EXPECT_EQ(change["query"]["values"].size(), 3u);
    EXPECT_EQ(change["to_step"], 100);
    EXPECT_EQ(to_json(FieldCodec<ShareChangeRecord>::read(change, "change field")).dump(),
              change.dump());
  }
}

// Every block under `key` in `j`, wherever it sits, checked as `R`; returns how many.
template <class R>
int round_trip_blocks(const nlohmann::json& j, const std::string& key,
                      bool (*is)(const nlohmann::json&), const std::filesystem::path& file) {
  int blocks = 0;
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == key && v.is_object() && is(v)) {
        EXPECT_EQ(to_json(FieldCodec<R>::read(v, key + " field")).dump(), v.dump()) << file;
        ++blocks;
      } else {
        blocks += round_trip_blocks<R>(v, key, is, file);
      }
    }
  } else if (j.is_array()) {
    for (const auto& v : j) blocks += round_trip_blocks<R>(v, key, is, file);
  }
  return blocks;
}

TEST(SharesRecordFields, EveryShippedBlockReadsBackAndWritesOutTheSameBytes) {
  int shares = 0, u_tests = 0, changes = 0;
  // Every shipped .json (the empty marker) that holds a U test or a share change's scale.
  for (const auto& [path, bytes] : posbias_test::shipped_json("")) {
    if (bytes.find("\"u_test\"") == std::string::npos &&
        bytes.find("\"scale\"") == std::string::npos)
      continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    shares += round_trip_blocks<SharesRecord>(
        j, "shares", [](const nlohmann::json& v) { return v.contains("regions"); }, path);
    u_tests += round_trip_blocks<UTestRecord>(
        j, "u_test", [](const nlohmann::json&) { return true; }, path);
    changes += round_trip_blocks<ShareChangeRecord>(
        j, "shares", [](const nlohmann::json& v) { return v.contains("scale"); }, path);
    changes += round_trip_blocks<ShareChangeRecord>(
        j, "shares_change", [](const nlohmann::json&) { return true; }, path);
  }
  EXPECT_GE(shares, 361);
  EXPECT_GE(u_tests, 361);
  EXPECT_GE(changes, 4);
}

}  // namespace
}  // namespace posbias
