// `eval --calibrate` as a user meets it on a kv run: the eval's JSON records the strength only
// when given; strength 0 is plain evaluation (the same file but for that field and the seconds);
// strength 1 evaluates the same cells with other attention; bad input gets one line and exit 2
// (a strength outside [0, 1] or not a number, --calibrate-strength alone, blockwise attention, a
// hop run, a run trained with a null sink).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli_run.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_calibrate", name); }

const std::string kTiny = tiny_kv_flags(2) + "--arch qwen2 ";

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

nlohmann::json eval_json(const fs::path& run, const std::string& args, const fs::path& out) {
  const CliResult e = run_cli("eval --run " + run.string() + " --lengths 40,80 --count 6 " + args +
                              " --json " + out.string() + " --csv " + out.string() + ".csv");
  EXPECT_EQ(e.code, 0) << e.err;
  nlohmann::json j = read_json(out);
  j.erase("seconds");
  return j;
}

TEST(CalibrateCli, RecordsTheStrengthAndStrengthZeroIsPlainEval) {
  const fs::path run = scratch("run");
  const CliResult t = run_cli(kTiny + "--out " + run.string(), 300);
  ASSERT_EQ(t.code, 0) << t.err;

  const nlohmann::json base = eval_json(run, "", scratch("base.json"));
  EXPECT_FALSE(base.contains("calibrate"));
  nlohmann::json zero = eval_json(run, "--calibrate --calibrate-strength 0", scratch("zero.json"));
  EXPECT_EQ(zero.at("calibrate"), 0.0);
  zero.erase("calibrate");
  EXPECT_EQ(zero, base);
  EXPECT_EQ(slurp(scratch("zero.json.csv")), slurp(scratch("base.json.csv")));

  const nlohmann::json full = eval_json(run, "--calibrate", scratch("full.json"));
  EXPECT_EQ(full.at("calibrate"), 1.0);
  EXPECT_EQ(full.at("lengths"), base.at("lengths"));
  EXPECT_EQ(full.at("depths"), base.at("depths"));
  EXPECT_EQ(eval_json(run, "--calibrate", scratch("full2.json")), full);  // same seed, same file

  const std::string eval = "eval --run " + run.string() + " --lengths 40 --count 2 ";
  expect_usage_error(eval + "--calibrate --calibrate-strength 1.5", "[0, 1]");
  expect_usage_error(eval + "--calibrate --calibrate-strength -0.5", "--calibrate-strength");
  expect_usage_error(eval + "--calibrate --calibrate-strength nan", "--calibrate-strength");
  expect_usage_error(eval + "--calibrate --calibrate-strength abc", "--calibrate-strength");
  expect_usage_error(eval + "--calibrate-strength 0.5", "needs --calibrate");
  expect_usage_error(eval + "--calibrate --attention blockwise", "dense attention only");
}

TEST(CalibrateCli, RefusesRunsItDoesNotApplyTo) {
  const fs::path hop = scratch("hop"), sink = scratch("sink");
  const CliResult h = run_cli(
      "train --task number --layers 1 --d-model 16 --heads 2 --mlp 32 --steps 2 --warmup 1 "
      "--eval-every 2 --checkpoint-every 2 --log-checkpoints 0 --batch 4 --out " +
          hop.string(),
      300);
  ASSERT_EQ(h.code, 0) << h.err;
  expect_usage_error("eval --run " + hop.string() + " --calibrate", "kv runs only");
  const CliResult s = run_cli(kTiny + "--null-sink 1 --out " + sink.string(), 300);
  ASSERT_EQ(s.code, 0) << s.err;
  expect_usage_error("eval --run " + sink.string() + " --lengths 40 --count 2 --calibrate",
                     "null-sink");
}

}  // namespace
