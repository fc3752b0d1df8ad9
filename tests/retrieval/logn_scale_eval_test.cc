// `train --logn-scale s` and `eval --logn-scale s` as a user meets them: train.json and
// config.json hold logn_scale only when it was given; the eval's JSON records it only when
// given, and without it is the same file as the run's plain evaluation (the seconds aside);
// bad input gets one line and exit 2 (s <= 0 or not a number, a run trained with it, ALiBi, a
// text run's bits per byte).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli_run.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_logn_scale", name); }

const std::string kTiny = tiny_kv_flags();

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

nlohmann::json eval_json(const fs::path& run, const std::string& args, const fs::path& out) {
  const CliResult e = run_cli("eval --run " + run.string() + " --lengths 40,80 --count 4 " + args +
                              " --json " + out.string());
  EXPECT_EQ(e.code, 0) << e.err;
  nlohmann::json j = read_json(out);
  j.erase("seconds");
  return j;
}

TEST(LognScaleCli, TrainedAndEvalOnlyRecordItOnlyWhenGiven) {
  const fs::path plain = scratch("plain"), scaled = scratch("scaled");
  const CliResult a = run_cli(kTiny + "--out " + plain.string(), 300);
  ASSERT_EQ(a.code, 0) << a.err;
  const CliResult b = run_cli(kTiny + "--logn-scale 0.3 --out " + scaled.string(), 300);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_FALSE(read_json(plain / "train.json").at("config").contains("logn_scale"));
  EXPECT_FALSE(read_json(plain / "config.json").contains("logn_scale"));
  EXPECT_EQ(read_json(scaled / "train.json").at("config").at("logn_scale"), 0.3);
  EXPECT_EQ(read_json(scaled / "config.json").at("logn_scale"), 0.3);

  // Without the option: no field, and the same evaluation as a second plain one.
  const nlohmann::json base = eval_json(plain, "", scratch("base.json"));
  EXPECT_FALSE(base.contains("logn_scale"));
  EXPECT_EQ(eval_json(plain, "", scratch("base2.json")), base);
  // With it: the field, the same cells (lengths, depths, counts), other logits.
  const nlohmann::json with = eval_json(plain, "--logn-scale 0.3", scratch("with.json"));
  EXPECT_EQ(with.at("logn_scale"), 0.3);
  EXPECT_EQ(with.at("lengths"), base.at("lengths"));
  // A run trained with it evaluates with its own scale, and records no eval-time option.
  const nlohmann::json own = eval_json(scaled, "", scratch("own.json"));
  EXPECT_FALSE(own.contains("logn_scale"));
  EXPECT_EQ(own.at("config").at("logn_scale"), 0.3);
  // The plain run evaluated with --logn-scale 0.3 and the run trained with 0.3 differ in their
  // weights, not in how the scale is applied: each is a different model, so nothing to compare.

  expect_usage_error("eval --run " + scaled.string() + " --logn-scale 0.3", "already scaled");
  expect_usage_error("eval --run " + plain.string() + " --logn-scale 0", "--logn-scale");
  expect_usage_error("eval --run " + plain.string() + " --logn-scale -1", "--logn-scale");
  expect_usage_error("eval --run " + plain.string() + " --logn-scale abc", "--logn-scale");
  expect_usage_error("eval --run " + plain.string() + " --logn-scale 101", "--logn-scale");
}

TEST(LognScaleCli, TrainRefusesABadScaleAndAlibi) {
  const fs::path out = scratch("bad");
  expect_usage_error(kTiny + "--logn-scale 0 --out " + out.string(), "logn");
  expect_usage_error(kTiny + "--logn-scale nan --out " + out.string(), "logn");
  expect_usage_error(kTiny + "--arch gpt2 --pos alibi --logn-scale 0.3 --out " + out.string(),
                     "ALiBi");
}

}  // namespace
