// MetricsRow's field table (metrics_row_fields): absent optionals are not written and NaN is
// null, mistyped, unknown and missing fields are refused by name in the metrics file's words,
// and every metrics.jsonl row shipped in docs/data reads back and writes out again byte for byte
// (every row round-tripping: tests/core/field_tables_test.cc).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/runfiles/metrics.h"

namespace posbias {
namespace {

MetricsRow full_row() {
  MetricsRow r;
  r.step = 250;
  r.loss = 1.25;
  r.lr = 0.001;
  r.acc = std::map<std::string, double>{{"1", 0.5}, {"all", 0.375}};
  r.heldout_loss = 3.5;
  r.bits_per_byte = 1.75;
  r.loss_per_position = std::vector<double>{4.0, 3.0};
  r.grad_per_position = std::map<std::string, std::vector<double>>{{"embed", {0.25, 0.125}}};
  r.passkey_exact_match = 0.0625;
  r.tokens_per_s = 1000;
  r.train_seconds = 12.5;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { metrics_row_from_json(j); });
}

TEST(MetricsRowFields, AbsentOptionalsAreNotWrittenAndNanIsNull) {
  MetricsRow r;  // step 0: no loss yet, no held-out fields
  const nlohmann::json j = metrics_row_to_json(r);
  EXPECT_TRUE(j.at("loss").is_null());
  for (const char* key : {"acc", "heldout_loss", "bits_per_byte", "loss_per_position",
                          "grad_per_position", "passkey_exact_match"})
    EXPECT_FALSE(j.contains(key)) << key;
  const MetricsRow back = metrics_row_from_json(j);
  EXPECT_TRUE(std::isnan(back.loss));
  EXPECT_FALSE(back.acc.has_value());
  EXPECT_FALSE(back.heldout_loss.has_value());
  // A diverged held-out evaluation writes NaN as null; it reads back as NaN.
  nlohmann::json diverged = metrics_row_to_json(full_row());
  diverged["heldout_loss"] = nullptr;
  diverged["loss_per_position"] = {1.0, nullptr};
  const MetricsRow d = metrics_row_from_json(diverged);
  EXPECT_TRUE(std::isnan(*d.heldout_loss));
  EXPECT_TRUE(std::isnan(d.loss_per_position->at(1)));
}

TEST(MetricsRowFields, MistypedUnknownAndMissingFieldsAreRefusedByName) {
  const nlohmann::json good = metrics_row_to_json(full_row());
  for (const auto& row : metrics_row_fields()) {
    nlohmann::json bad = good;
    bad[row.name] = "x";
    EXPECT_NE(message_of(bad).find("'" + row.name + "'"), std::string::npos) << row.name;
  }
  nlohmann::json bad = good;
  bad["acc"] = {{"1", "half"}};
  EXPECT_NE(message_of(bad).find("'acc.1'"), std::string::npos) << message_of(bad);
  bad = good;
  bad["stpe"] = 3;
  EXPECT_NE(message_of(bad).find("unknown metrics field 'stpe'"), std::string::npos);
  for (const char* key : {"step", "loss", "lr"}) {
    bad = good;
    bad.erase(key);
    EXPECT_NE(message_of(bad).find(std::string("missing metrics field '") + key + "'"),
              std::string::npos)
        << key;
  }
  EXPECT_THROW(parse_metrics_line("{\"step\":"), std::invalid_argument);
  EXPECT_THROW(parse_metrics_line("[1]"), std::invalid_argument);
}

TEST(MetricsRowFields, EveryShippedRowReadsBackAndWritesOutTheSameBytes) {
  const std::filesystem::path data = std::filesystem::path(POSBIAS_SOURCE_DIR) / "docs/data";
  int files = 0, lines = 0, text_rows = 0, hop_rows = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.find("metrics") == std::string::npos ||
        entry.path().extension() != ".jsonl")
      continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      ++lines;
      const MetricsRow r = parse_metrics_line(line);
      text_rows += r.heldout_loss ? 1 : 0;
      hop_rows += r.acc ? 1 : 0;
      if (r.acc) EXPECT_TRUE(r.acc->count(kAllHopsKey)) << entry.path() << " line " << lines;
      ASSERT_EQ(metrics_row_to_json(r).dump(), line) << entry.path() << " line " << lines;
    }
  }
  EXPECT_GE(files, 20);
  EXPECT_GT(text_rows, 100);
  EXPECT_GT(hop_rows, 1000);
  EXPECT_EQ(text_rows + hop_rows, lines);
}

}  // namespace
}  // namespace posbias

// The all-hops key, which every shipped row with an accuracy has (below), titles its series
// "all hops" and every other key "N-hop".
TEST(HopKey, IsTheShippedRowsKeyAndTitlesEachKey) {
  EXPECT_STREQ(posbias::kAllHopsKey, "all");
  EXPECT_EQ(posbias::hop_key_title(posbias::kAllHopsKey), "all hops");
  EXPECT_EQ(posbias::hop_key_title("2"), "2-hop");
}

// The progress bar's status names the training loss and the held-out metric each kind of run
// logs, and leaves out what a row does not have (step 0 trained nothing).
TEST(MetricsStatus, NamesTheLossAndTheHeldOutMetricOfTheRow) {
  posbias::MetricsRow hop;
  hop.step = 500;
  hop.loss = 0.93412;
  hop.acc = std::map<std::string, double>{{"1", 0.9}, {"all", 0.4123}};
  EXPECT_EQ(posbias::metrics_status(hop), "loss 0.934, held-out accuracy 0.412");
  posbias::MetricsRow start = hop;
  start.loss = NAN;
  EXPECT_EQ(posbias::metrics_status(start), "held-out accuracy 0.412");
  posbias::MetricsRow text;
  text.loss = 3.2149;
  text.bits_per_byte = 2.0537;
  text.passkey_exact_match = 0.25;
  EXPECT_EQ(posbias::metrics_status(text),
            "loss 3.21, held-out 2.054 bits/byte, passkey exact match 0.250");
}
