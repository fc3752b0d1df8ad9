// `train --precision bf16`: the forward pass's matrix products in bfloat16 under CPU autocast,
// weights, moments and evaluation in fp32. On a CPU with native bf16 a tiny hop run trains both
// ways from the same weights: the step-0 evaluation (fp32, before any update) is identical, the
// training losses differ (autocast is active, a control that the option does something) but
// stay within 2% of each other over the first steps, train.json records bf16 and leaves an fp32
// run's file as it was. Without native bf16 the option is one line, exit 2. A misspelt value is
// one line naming the names.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "kill_while_training.h"
#include "posbias/core/machine.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

const std::string kTiny =
    "train --task number --layers 2 --d-model 64 --mlp 128 --rotary-dim 8 --eval-per-hop 32 "
    "--steps 40 --warmup 10 --eval-every 20 --checkpoint-every 20 --log-checkpoints 0 ";

TEST(Precision, Bf16TrainsCloseToFp32FromTheSameWeights) {
  const fs::path fp32 = scratch_path("posbias_precision", "fp32");
  const fs::path bf16 = scratch_path("posbias_precision", "bf16");
  if (!posbias::cpu_has_native_bf16()) {
    expect_usage_error(kTiny + "--precision bf16 --out " + bf16.string(),
                       "precision bf16 needs a CPU that multiplies bfloat16 natively");
    GTEST_SKIP() << "this CPU has no native bf16: the refusal was checked";
  }
  const CliResult a = run_cli(kTiny + "--out " + fp32.string());
  ASSERT_EQ(a.code, 0) << a.err;
  const CliResult b = run_cli(kTiny + "--precision bf16 --out " + bf16.string());
  ASSERT_EQ(b.code, 0) << b.err;
  const auto config = [](const fs::path& run) {
    return nlohmann::json::parse(slurp(run / "train.json"))["config"];
  };
  EXPECT_FALSE(config(fp32).contains("precision"));
  EXPECT_EQ(config(bf16)["precision"], "bf16");
  const auto ra = metrics_without_timing(fp32), rb = metrics_without_timing(bf16);
  ASSERT_EQ(ra.size(), 3u);  // steps 0, 20, 40
  ASSERT_EQ(rb.size(), 3u);
  EXPECT_EQ(ra[0]["acc"], rb[0]["acc"]);  // the same initial weights, evaluated in fp32
  bool differ = false;
  for (std::size_t i = 1; i < ra.size(); ++i) {
    const double la = ra[i]["loss"].get<double>(), lb = rb[i]["loss"].get<double>();
    EXPECT_LT(std::abs(la - lb), 0.02 * la) << "step " << ra[i]["step"];
    differ = differ || la != lb;
  }
  EXPECT_TRUE(differ) << "bf16 gave fp32's losses to the last bit: autocast did nothing";
}

TEST(Precision, BadValuesGetOneLine) {
  expect_usage_error(
      kTiny + "--precision fp16 --out " + scratch_path("posbias_precision", "bad").string(),
      "unknown precision 'fp16' (use fp32 or bf16)");
}

}  // namespace
