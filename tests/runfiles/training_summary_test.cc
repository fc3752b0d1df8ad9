// TrainingSummary's and TextEvalResult's field tables (runfiles/training_summary.h,
// runfiles/heldout_split.h): a summary with every part round-trips through JSON, fields
// inside parts are refused by their dotted path, and every summary.json and text eval result
// shipped in docs/data reads back and writes out again byte for byte (a config of an earlier
// build gains the fields added since).
#include "posbias/runfiles/training_summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

TrainingSummary full_summary() {
  TrainingSummary s;
  s.task = Task::kText;
  s.steps = 300;
  s.train_seconds = 12.5;
  s.config = TrainConfig::defaults(Task::kText);
  s.metrics.crossing_90 = {{"1", 100}, {"all", std::nullopt}};
  s.metrics.crossing_99 = {{"1", 200}, {"all", std::nullopt}};
  s.metrics.final_accuracy = {{"1", 0.995}, {"all", 0.5}};
  s.metrics.final_step = 300;
  HeldoutSplit h;
  h.loss_per_position = {5.0, 4.0};
  h.loss = 4.5;
  h.bits_per_byte = 1.75;
  h.windows = 3;
  h.tokens = 6;
  h.bytes = 24;
  h.unigram_bits_per_byte = 2.5;
  h.bigram_bits_per_byte = 2.0;
  h.train_tokens = 1000;
  h.heldout_tokens = 100;
  h.tokenizer = TokenizerKind::kSpm;
  h.vocab = 4096;
  s.heldout = h;
  s.data_parallel = DataParallelStats{2, 4, 3, 0.25};
  return s;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { training_summary_from_json(j); });
}

TEST(TrainingSummaryFields, EveryPartRoundTripsThroughJson) {
  const nlohmann::json j = to_json(full_summary());
  std::set<std::string> names;
  for (const auto& row : training_summary_fields()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " is in the table twice";
    EXPECT_TRUE(j.contains(row.name)) << row.name << " is not written";
  }
  EXPECT_EQ(names.size(), j.size());
  for (const auto& row : heldout_split_fields()) EXPECT_TRUE(j["heldout"].contains(row.name));
  EXPECT_TRUE(j["metrics"]["crossing_0.9"]["all"].is_null());
  EXPECT_EQ(to_json(training_summary_from_json(j)), j);
  // A hop run on one process has neither optional part.
  TrainingSummary hop = full_summary();
  hop.heldout.reset();
  hop.data_parallel.reset();
  const nlohmann::json h = to_json(hop);
  EXPECT_FALSE(h.contains("heldout"));
  EXPECT_FALSE(h.contains("data_parallel"));
}

TEST(TrainingSummaryFields, FieldsInsidePartsAreRefusedByTheirPath) {
  const nlohmann::json good = to_json(full_summary());
  nlohmann::json bad = good;
  bad["metrics"]["crossing_0.9"]["all"] = "soon";
  EXPECT_NE(message_of(bad).find("summary field 'metrics.crossing_0.9.all'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["metrics"].erase("final");
  EXPECT_NE(message_of(bad).find("missing summary field 'metrics.final'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["heldout"]["bigram"] = 2.0;
  EXPECT_NE(message_of(bad).find("unknown summary field 'heldout.bigram'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["config"]["lenght"] = 17;
  EXPECT_NE(message_of(bad).find("unknown config field 'lenght'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["data_parallel"] = 2;
  EXPECT_NE(message_of(bad).find("summary field 'data_parallel' must be an object"),
            std::string::npos)
      << message_of(bad);
  for (const char* key : {"task", "steps", "metrics"}) {
    bad = good;
    bad.erase(key);
    EXPECT_NE(message_of(bad).find(std::string("missing summary field '") + key + "'"),
              std::string::npos)
        << key;
  }
}

TEST(TrainingSummaryFields, EveryShippedFileReadsBackAndWritesOutTheSameBytes) {
  int summaries = 0, text = 0, evals = 0, current_configs = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"steps\"")) {
    const std::string name = path.filename().string();
    if (name != "summary.json" && !name.ends_with("-summary.json")) continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (!j.contains("metrics") || !j.contains("steps")) continue;  // birth, theory summaries
    const TrainingSummary s = training_summary_from_json(j);
    ++summaries;
    text += s.heldout ? 1 : 0;
    // Configs written by earlier builds gain the fields added since (train_config_test);
    // the rest of the file comes back byte for byte.
    nlohmann::json expected = j;
    expected["config"] = to_json(s)["config"];
    current_configs += expected == j ? 1 : 0;
    EXPECT_EQ(posbias_test::json_text(to_json(s)), posbias_test::json_text(expected)) << path;
  }
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"unigram_bits_per_byte\"")) {
    if (!path.filename().string().ends_with("-eval.json")) continue;
    const TextEvalResult r = text_eval_result_from_json(nlohmann::json::parse(bytes));
    ++evals;
    EXPECT_EQ(posbias_test::json_text(to_json(r)), bytes) << path;
    nlohmann::json bad = nlohmann::json::parse(bytes);
    bad["attention"] = "flash";  // an enum: only dense or blockwise
    EXPECT_NE(posbias_test::refusal_of([&] {
                text_eval_result_from_json(bad);
              }).find("eval field 'attention': unknown attention path 'flash'"),
              std::string::npos)
        << path;
  }
  EXPECT_GE(summaries, 30);
  EXPECT_GE(current_configs, 10);
  EXPECT_GE(text, 6);
  EXPECT_GE(evals, 6);
}

}  // namespace
}  // namespace posbias
