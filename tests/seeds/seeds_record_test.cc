// The text experiment's summary over training seeds (experiments/seeds/seeds_record.h): every
// one shipped in docs/data reads back and writes out byte for byte, the summaries made again
// from their shipped inputs are those files, and fields deep inside are refused by their dotted
// path.
#include "experiments/seeds/seeds_record.h"

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

TEST(TextSeedsRecordFields, EveryShippedSummaryReadsBackAndWritesOutTheSameBytes) {
  int files = 0, with_heldout = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"log10_share\"")) {
    const TextSeedsRecord r = text_seeds_record_from_json(json::parse(bytes));
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    with_heldout += r.heldout.has_value();
    ++files;
  }
  EXPECT_GE(files, 4);
  EXPECT_GE(with_heldout, 2);
}

TEST(TextSeedsRecordFields, TheShippedInputsGiveTheShippedSummaries) {
  const fs::path cwd = fs::current_path();
  fs::current_path(posbias_test::docs_only_folder("posbias_seeds_record"));
  const std::string d = "docs/data/text/";
  for (const std::string model : {"gpt2", "qwen2"}) {
    for (const bool evals : {true, false}) {
      SeedsOptions o;
      for (int s = 0; s < 3; ++s) {
        const std::string seed = d + model + "-seed" + std::to_string(s);
        o.birth.push_back(seed + (evals ? "-birth.json" : "-birth-loss.json"));
        if (evals) o.eval.push_back(seed + "-eval.json");
      }
      // How many files name a run folder that is not here depends on the machine (they name
      // theirs by an absolute path): the note is left out of the comparison.
      const std::string shipped = d + model + (evals ? "-seeds.json" : "-seeds-loss.json");
      TextSeedsRecord made = text_seeds_record(summarize_seeds(o));
      TextSeedsRecord expected =
          text_seeds_record_from_json(json::parse(posbias_test::slurp(shipped)));
      made.unchecked_configurations.reset();
      expected.unchecked_configurations.reset();
      EXPECT_EQ(json_text(to_json(made)), json_text(to_json(expected))) << shipped;
    }
  }
  fs::current_path(cwd);
}

std::string message_of(const json& j) {
  return posbias_test::refusal_of([&] { text_seeds_record_from_json(j); });
}

TEST(TextSeedsRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good = json::parse(posbias_test::slurp(kShippedData / "text/gpt2-seeds.json"));
  json bad = good;
  bad["checkpoints"][1]["log10_share"]["low"][3] = "low";
  EXPECT_NE(message_of(bad).find("seeds field 'checkpoints.1.log10_share.low.3' must be a number"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][0]["gradient"]["median_abs_log10_error"]["exact"] = 0.1;
  EXPECT_NE(message_of(bad).find(
                "unknown seeds field 'checkpoints.0.gradient.median_abs_log10_error.exact'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][2]["u_test"].erase("verdict");
  EXPECT_NE(message_of(bad).find("missing seeds field 'checkpoints.2.u_test.verdict'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["change"]["shares"]["middle"]["values"] = 0.5;
  EXPECT_NE(message_of(bad).find("seeds field 'change.shares.middle.values' must be a list"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("checkpoints");
  EXPECT_NE(message_of(bad).find("missing seeds field 'checkpoints'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["target"] = "answer";  // an enum: hidden, loss or prob
  EXPECT_NE(message_of(bad).find("seeds field 'target': unknown --target 'answer'"),
            std::string::npos)
      << message_of(bad);
}

}  // namespace
}  // namespace posbias
