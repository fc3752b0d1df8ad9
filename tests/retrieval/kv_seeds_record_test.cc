// The kv and passkey summary over training seeds (experiments/retrieval/kv_seeds_record.h):
// every one shipped in docs/data reads back and writes out byte for byte (those of builds before
// the task field without it), the benchmark's summaries made again from their shipped evals are
// those files, and fields deep inside are refused by their dotted path.
#include "experiments/retrieval/kv_seeds_record.h"

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

TEST(KvSeedsRecordFields, EveryShippedSummaryReadsBackAndWritesOutTheSameBytes) {
  int files = 0, without_task = 0, remade = 0;
  const fs::path cwd = fs::current_path();
  fs::current_path(posbias_test::docs_only_folder("posbias_kv_seeds_record"));
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"u_verdict\"")) {
    if (path.filename() != "seeds.json") continue;
    const KvSeedsRecord r = kv_seeds_record_from_json(json::parse(bytes));
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    without_task += !r.task.has_value();
    // The summary made again from the evals it names, where they are shipped.
    if (!r.files.empty() && fs::exists(r.files.front())) {
      KvSeedsOptions o;
      o.eval = r.files;
      EXPECT_EQ(json_text(to_json(kv_seeds_record(summarize_kv_seeds(o)))), bytes) << path;
      ++remade;
    }
  }
  fs::current_path(cwd);
  EXPECT_GE(files, 13);
  EXPECT_GE(without_task, 2);
  EXPECT_GE(remade, 11);
}

std::string message_of(const json& j) {
  return posbias_test::refusal_of([&] { kv_seeds_record_from_json(j); });
}

TEST(KvSeedsRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good =
      json::parse(posbias_test::slurp(kShippedData / "retrieval/bench/qwen2-rope/seeds.json"));
  json bad = good;
  bad["depth_accuracy"]["64"]["50"]["values"][0] = true;
  EXPECT_NE(message_of(bad).find("seeds field 'depth_accuracy.64.50.values.0' must be a number"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["u_verdict"]["by_length"]["32"]["middle_minus_middle"] = good["u_verdict"]["pooled"];
  EXPECT_NE(
      message_of(bad).find("unknown seeds field 'u_verdict.by_length.32.middle_minus_middle'"),
      std::string::npos)
      << message_of(bad);
  bad = good;
  bad["task"] = "letter";  // an enum: kv or passkey
  EXPECT_EQ(message_of(bad),
            "seeds field 'task': unknown retrieval task 'letter' (use kv or passkey)");
  bad = good;
  bad["u_verdict"]["pooled"].erase("verdict");
  EXPECT_NE(message_of(bad).find("missing seeds field 'u_verdict.pooled.verdict'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["effective_length"]["median"] = "32";
  EXPECT_NE(message_of(bad).find("seeds field 'effective_length.median' must be a number"),
            std::string::npos)
      << message_of(bad);
}

}  // namespace
}  // namespace posbias
