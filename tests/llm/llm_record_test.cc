// `posbias llm`'s result as its file holds it (experiments/llm/llm_record.h and
// posbias/llm/llm_summary_record.h): every result shipped in docs/data reads back and writes out
// byte for byte (those of builds before the chance level without it), a summary with
// log-probabilities round-trips, and fields deep inside are refused by their dotted path.
#include "experiments/llm/llm_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "../shipped_records.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using posbias_test::json_text;
using posbias_test::kShippedData;

TEST(LlmRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0, without_chance = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"suites\"")) {
    const LlmRecord r = llm_record_from_json(json::parse(bytes));
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    without_chance += !r.suites.front().by_length.front().chance.has_value();
  }
  EXPECT_GE(files, 5);
  EXPECT_GE(without_chance, 2);
}

// Two rows by length (all hops and 2 hops) and one by depth with a mean log-probability but no
// interval (one prompt had one).
SuiteSummary summary_with_logprobs() {
  SuiteSummary s;
  s.suite = "number";
  s.model = "m";
  s.prompts = 5;
  s.answered = 4;
  s.failed = 1;
  AccuracyRow all;
  all.length = 17;
  all.n = 4;
  all.strict = 0.75;
  all.lenient = 1;
  all.strict_ci = {0.3, 0.95};
  all.lenient_ci = {0.5, 1};
  all.chance = 0.1;
  all.logprob_n = 2;
  all.logprob = -1.5;
  all.logprob_ci = {-3, 0};
  AccuracyRow two = all;
  two.hops = 2;
  two.logprob_n = 0;
  two.logprob = NAN;
  two.logprob_ci = {NAN, NAN};
  AccuracyRow depth = all;
  depth.depth = 50;
  depth.logprob_n = 1;
  depth.logprob_ci = {NAN, NAN};
  s.by_length = {all, two};
  s.by_depth = {depth};
  return s;
}

TEST(LlmRecordFields, ASummaryWithLogProbabilitiesRoundTrips) {
  const SuiteSummary s = summary_with_logprobs();
  const json j = to_json(s);
  EXPECT_EQ(j["strict"]["17"]["all"], 0.75);
  EXPECT_EQ(j["lenient"]["17"]["2"], 1.0);
  EXPECT_EQ(j["by_length"][0]["hops"], "all");
  EXPECT_EQ(j["by_length"][1]["hops"], 2);
  EXPECT_EQ(j["by_length"][0]["strict_ci"], json::array({0.3, 0.95}));
  EXPECT_EQ(j["by_length"][0]["logprob_ci"], json::array({-3.0, 0.0}));
  EXPECT_TRUE(j["by_length"][1]["logprob"].is_null());
  EXPECT_TRUE(j["by_depth"][0]["logprob_ci"].is_null());
  EXPECT_EQ(j["by_depth"][0]["depth"], 50);
  EXPECT_FALSE(j["by_depth"][0].contains("hops"));
  EXPECT_EQ(to_json(suite_summary_record_from_json(j)), j);
  // Without a log-probability anywhere, no row has the fields.
  SuiteSummary plain = s;
  for (auto* rows : {&plain.by_length, &plain.by_depth})
    for (AccuracyRow& r : *rows) r.logprob_n = 0, r.logprob = NAN;
  const json p = to_json(plain);
  for (const json& row : p["by_length"]) EXPECT_FALSE(row.contains("logprob_n")) << row;
  EXPECT_EQ(to_json(suite_summary_record_from_json(p)), p);
}

std::string message_of(const json& j) {
  return posbias_test::refusal_of([&] { llm_record_from_json(j); });
}

TEST(LlmRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good = json::parse(posbias_test::slurp(kShippedData / "llm/kv-small.json"));
  json bad = good;
  bad["suites"][0]["by_length"][1]["strict_ci"] = json::array({0.5});
  EXPECT_NE(message_of(bad).find("llm field 'suites.0.by_length.1.strict_ci' must be a list"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["suites"][0]["by_length"][0]["hops"] = "every";
  EXPECT_NE(message_of(bad).find("llm field 'suites.0.by_length.0.hops'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["suites"][0]["by_depth"][0]["accuracy"] = 1;
  EXPECT_NE(message_of(bad).find("unknown llm field 'suites.0.by_depth.0.accuracy'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["suites"][0]["strict"]["16"]["all"] = "1";
  EXPECT_NE(message_of(bad).find("llm field 'suites.0.strict.16.all' must be a number"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["suites"][0].erase("suite");
  EXPECT_NE(message_of(bad).find("missing llm field 'suites.0.suite'"), std::string::npos)
      << message_of(bad);
}

}  // namespace
}  // namespace posbias
