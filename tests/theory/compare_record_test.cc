// `theory compare`'s result (experiments/theory/compare_record.h): every one shipped in docs/data
// reads back and writes out byte for byte, and fields deep inside are refused by their dotted
// path.
#include "experiments/theory/compare_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

using nlohmann::json;
using posbias_test::json_text;

TEST(CompareRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0;
  json good;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"one_over_h_minus_1_factorial\"")) {
    const json j = json::parse(bytes);
    if (!j.contains("errors")) continue;  // a table that quotes the field
    const CompareRecord r = compare_record_from_json(j);
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    good = j;
  }
  EXPECT_GE(files, 6);
  auto message_of = [](const json& j) {
    return posbias_test::refusal_of([&] { compare_record_from_json(j); });
  };
  json bad = good;
  bad["runs"][1]["margin"] = "wide";
  EXPECT_NE(message_of(bad).find("compare field 'runs.1.margin'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["runs"][0]["dead_zone"]["depth"] = 1;
  EXPECT_NE(message_of(bad).find("unknown compare field 'runs.0.dead_zone.depth'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("errors");
  EXPECT_NE(message_of(bad).find("missing compare field 'errors'"), std::string::npos)
      << message_of(bad);
}

}  // namespace
}  // namespace posbias
