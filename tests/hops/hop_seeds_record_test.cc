// The hop summaries' field tables (experiments/hops/hop_seeds_record.h): every `seeds` summary
// of hop runs and every `seeds --compare` shipped in docs/data reads back and writes out byte for
// byte, the summaries made again from their shipped inputs are those files (less the note that
// files of an earlier build could not be checked), and fields deep inside are refused by their
// dotted path.
#include "experiments/hops/hop_seeds_record.h"

#include <gtest/gtest.h>

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

// Every shipped file of `kind` ("seeds": "interval" over seeds and a hop task; "compare":
// "configurations"), read back and written out.
template <class Read>
int round_trip_shipped(const std::string& marker, Read read) {
  int files = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json(marker)) {
    const json j = json::parse(bytes);
    if (!j.is_object() || !j.contains("task") || (j["task"] != "number" && j["task"] != "letter"))
      continue;
    EXPECT_EQ(json_text(to_json(read(j))), bytes) << path;
    ++files;
  }
  return files;
}

TEST(HopSeedsRecordFields, EveryShippedSummaryReadsBackAndWritesOutTheSameBytes) {
  EXPECT_GE(
      round_trip_shipped("\"interval\": \"95% Student t over seeds\"", hop_seeds_record_from_json),
      5);
  EXPECT_GE(round_trip_shipped("\"configurations\"", hop_comparison_record_from_json), 2);
}

// The summaries made now from the shipped inputs, as the shipped files hold them (files of
// builds before the note on unchecked configurations lack it).
TEST(HopSeedsRecordFields, TheShippedInputsGiveTheShippedSummaries) {
  const fs::path cwd = fs::current_path();
  fs::current_path(posbias_test::docs_only_folder("posbias_hop_seeds_record"));
  const std::string d = "docs/data/hops/seeds/";
  for (const std::string task : {"number", "letter"}) {
    auto per_seed = [&](const std::string& suffix) {
      std::vector<std::string> files;
      for (int s = 0; s < 3; ++s) files.push_back(d + task + "-seed" + std::to_string(s) + suffix);
      return files;
    };
    HopSeedsOptions o;
    o.summary = per_seed("-summary.json");
    o.metrics = per_seed("-metrics.jsonl");
    o.eval = per_seed("-eval.json");
    o.heads = per_seed("-heads.json");
    o.discrepancy = per_seed("-discrepancy.json");
    // How many files name a run folder that is not here depends on the machine (some name
    // theirs by an absolute path): the note is left out of the comparison.
    HopSeedsRecord r = hop_seeds_record(summarize_hop_seeds(o));
    r.unchecked_configurations.reset();
    EXPECT_EQ(json_text(to_json(r)), posbias_test::slurp(d + task + "-seeds.json")) << task;
    o = HopSeedsOptions{};
    o.discrepancy = per_seed("-discrepancy-control.json");
    r = hop_seeds_record(summarize_hop_seeds(o));
    r.unchecked_configurations.reset();
    EXPECT_EQ(json_text(to_json(r)), posbias_test::slurp(d + task + "-seeds-control.json")) << task;
  }
  fs::current_path(cwd);
}

std::string message_of(const json& j) {
  return posbias_test::refusal_of([&] { hop_seeds_record_from_json(j); });
}

TEST(HopSeedsRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good = json::parse(posbias_test::slurp(kShippedData / "hops/seeds/number-seeds.json"));
  json bad = good;
  bad["eval"]["accuracy"]["17"]["all"]["chance"] = "low";
  EXPECT_NE(message_of(bad).find("seeds field 'eval.accuracy.17.all.chance' must be a number"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["training"]["crossing_0.9"]["all"]["values"][1] = 817.5;  // a step is a whole number
  EXPECT_NE(message_of(bad).find("seeds field 'training.crossing_0.9.all.values.1'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["heads"]["steps"][2]["positional"]["L0.h0"]["median"] = 0.5;
  EXPECT_NE(message_of(bad).find("unknown seeds field 'heads.steps.2.positional.L0.h0.median'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["discrepancy"]["roles"]["positional"]["exponent"].erase("mean");
  EXPECT_NE(
      message_of(bad).find("missing seeds field 'discrepancy.roles.positional.exponent.mean'"),
      std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("task");
  EXPECT_NE(message_of(bad).find("missing seeds field 'task'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["files"]["birth"] = json::array();
  EXPECT_NE(message_of(bad).find("unknown seeds field 'files.birth'"), std::string::npos)
      << message_of(bad);
  json compare =
      json::parse(posbias_test::slurp(kShippedData / "hops/ablation/number-compare.json"));
  compare["configurations"][1]["seeds"] = "three";
  try {
    hop_comparison_record_from_json(compare);
    ADD_FAILURE() << "a mistyped seed count was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("comparison field 'configurations.1.seeds'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace posbias
