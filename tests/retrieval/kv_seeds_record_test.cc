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

namespace posbias {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kData = fs::path(POSBIAS_SOURCE_DIR) / "docs/data";

std::string text(const json& j) { return j.dump(2) + "\n"; }

TEST(KvSeedsRecordFields, EveryShippedSummaryReadsBackAndWritesOutTheSameBytes) {
  int files = 0, without_task = 0, remade = 0;
  const fs::path cwd = fs::current_path();
  fs::current_path(posbias_test::docs_only_folder("posbias_kv_seeds_record"));
  for (const auto& entry : fs::recursive_directory_iterator(kData)) {
    if (!entry.is_regular_file() || entry.path().filename() != "seeds.json") continue;
    const std::string bytes = posbias_test::slurp(entry.path());
    if (bytes.find("\"u_verdict\"") == std::string::npos) continue;
    const KvSeedsRecord r = kv_seeds_record_from_json(json::parse(bytes));
    EXPECT_EQ(text(to_json(r)), bytes) << entry.path();
    ++files;
    without_task += !r.task.has_value();
    // The summary made again from the evals it names, where they are shipped.
    if (!r.files.empty() && fs::exists(r.files.front())) {
      KvSeedsOptions o;
      o.eval = r.files;
      EXPECT_EQ(text(to_json(kv_seeds_record(summarize_kv_seeds(o)))), bytes) << entry.path();
      ++remade;
    }
  }
  fs::current_path(cwd);
  EXPECT_GE(files, 13);
  EXPECT_GE(without_task, 2);
  EXPECT_GE(remade, 11);
}

std::string message_of(const json& j) {
  try {
    kv_seeds_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(KvSeedsRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good =
      json::parse(posbias_test::slurp(kData / "retrieval/bench/qwen2-rope/seeds.json"));
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
