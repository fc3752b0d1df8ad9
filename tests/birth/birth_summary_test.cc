// What birth prints without --json: its result JSON on a pipe or a file (as scripts read it),
// and on a terminal a short summary and how to get the JSON (core/json_result.h,
// experiments/birth/birth_summary.h).
#include "experiments/birth/birth_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "posbias/core/json_result.h"

namespace posbias {
namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

HfConfig gpt2(std::int64_t layers, std::int64_t d, std::int64_t heads) {
  HfConfig c;
  c.model_type = Family::kGpt2;
  c.position_encoding = PosEncoding::kLearned;
  c.num_hidden_layers = layers;
  c.hidden_size = d;
  c.num_attention_heads = heads;
  return c;
}

// A GPT-2 (2 layers, d 32, 2 heads) at init: five positions, three seeds, the minimum at
// position 2, every region's share.
BirthRecord sample_record() {
  BirthRecord r;
  r.config = gpt2(2, 32, 2);
  r.measurement.length = 5;
  r.measurement.seeds = 3;
  r.measurement.weights = "init";
  r.measurement.method = JacobianMethod::kExact;
  r.profile = {4.0, 2.5, 1.25, 3.0, 160.5};
  r.nofit.emplace();
  r.nofit->argmin_measured = 2;
  r.shares.emplace();
  const double means[] = {0.125, 0.0625, 0.25, 0.5625};
  for (std::size_t k = 0; k < kShareRegions.size(); ++k) {
    r.shares->share[k].emplace();
    r.shares->share[k]->interval.mean = means[k];
  }
  return r;
}

TEST(BirthSummary, NamesTheModelTheProfileAndTheShares) {
  EXPECT_EQ(birth_summary(sample_record()),
            "birth: gpt2 (learned), layers 2, d 32, heads 2, L 5, seeds 3, at init, exact\n"
            "birth: influence (mean over seeds): 4 at position 0, minimum 1.25 at 2, 3 at 3, "
            "160.5 at the query 4\n"
            "birth: shares of the profile: primacy 0.125, middle 0.0625, recency 0.25, query "
            "0.5625\n");
}

TEST(BirthSummary, LeavesOutWhatTheResultLacks) {
  BirthRecord r = sample_record();
  r.shares.reset();
  r.nofit.reset();
  r.profile = {1.0};
  r.config = gpt2(24, 896, 14);
  r.config.model_type = Family::kQwen2;
  r.config.position_encoding = PosEncoding::kRope;
  const HfConfig qwen2 = r.config;
  EXPECT_EQ(birth_summary(r),
            "birth: qwen2 (rope), layers 24, d 896, heads 14, L 5, seeds 3, at init, exact\n"
            "birth: influence (mean over seeds): 1 at position 0\n");
  // A region without a statistic, or with a mean there is none of, is left out; a position
  // without a value is null; a windowed Llama is named as its config.json names it.
  r = sample_record();
  r.config = qwen2;
  r.config.model_type = Family::kLlama;
  r.config.sliding_window = 16;
  r.shares->share[1].reset();
  r.shares->share[3]->interval.mean = NAN;
  r.measurement.weights = "run runs/a";
  EXPECT_EQ(birth_summary(r),
            "birth: mistral (rope), layers 24, d 896, heads 14, L 5, seeds 3, run runs/a, exact\n"
            "birth: influence (mean over seeds): 4 at position 0, minimum 1.25 at 2, 3 at 3, "
            "160.5 at the query 4\n"
            "birth: shares of the profile: primacy 0.125, recency 0.25\n");
  r.profile = {4.0, NAN};
  r.shares.reset();
  r.config = gpt2(1, 16, 2);
  EXPECT_EQ(birth_summary(r),
            "birth: gpt2 (learned), layers 1, d 16, heads 2, L 5, seeds 3, run runs/a, exact\n"
            "birth: influence (mean over seeds): 4 at position 0, null at the query 1\n");
}

TEST(JsonResult, TheJsonOnAPipeAndASummaryOnATerminal) {
  EXPECT_EQ(json_hint(900),
            "the result JSON (900 bytes) is not printed on a terminal: --json FILE writes it, "
            "--json - prints it here");
  EXPECT_NE(json_hint(26 * 1024).find("(26 KB)"), std::string::npos);
  const std::string json = "{\"a\": 1}\n";
  auto summary = [] { return std::string("birth: a summary\n"); };
  testing::internal::CaptureStdout();
  write_json_result("", json, summary, /*terminal=*/false);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), json);
  testing::internal::CaptureStdout();
  write_json_result("", json, summary, /*terminal=*/true);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "birth: a summary\n" + json_hint(9) + "\n");
  testing::internal::CaptureStdout();
  write_json_result("-", json, summary, /*terminal=*/true);  // asked for on stdout
  EXPECT_EQ(testing::internal::GetCapturedStdout(), json);
  const fs::path file = scratch_path("posbias_birth_summary", "r.json");
  write_json_result(file.string(), json, summary, /*terminal=*/true);
  EXPECT_EQ(slurp(file), json);
}

const std::string kTinyBirth =
    "birth --arch gpt2 --layers 1 --d-model 16 --heads 2 --length 8 --seeds 2";

TEST(JsonResult, BirthWritesItsJsonToAFileOrAPipeAndToDashOnATerminal) {
  const fs::path dir = scratch_path("posbias_birth_summary", "cli");
  fs::create_directories(dir);
  const std::string bin = std::string(POSBIAS_BIN);
  // stdout a file: the JSON, as before.
  const CliResult piped = run_cli(kTinyBirth);
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_TRUE(nlohmann::json::parse(piped.out).contains("profile")) << piped.out.substr(0, 200);
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "no script(1) to give birth a terminal";
  // stdout a terminal: the summary and the hint, no JSON.
  const CliResult tty = run_shell("cd " + dir.string() + " && script -qec '" + bin + " " +
                                  kTinyBirth + "' /dev/null");
  ASSERT_EQ(tty.code, 0) << tty.out;
  EXPECT_NE(tty.out.find("birth: gpt2 (learned), layers 1, d 16, heads 2, L 8, seeds 2"),
            std::string::npos)
      << tty.out;
  EXPECT_NE(tty.out.find("is not printed on a terminal: --json FILE writes it, --json - prints"),
            std::string::npos)
      << tty.out;
  EXPECT_EQ(tty.out.find("\"profile\""), std::string::npos) << tty.out;
  // --json - on a terminal: the JSON, and no file named - (nor its seed journal) beside it.
  const CliResult dash = run_shell("cd " + dir.string() + " && script -qec '" + bin + " " +
                                   kTinyBirth + " --json -' /dev/null");
  ASSERT_EQ(dash.code, 0) << dash.out;
  EXPECT_NE(dash.out.find("\"profile\""), std::string::npos) << dash.out.substr(0, 300);
  EXPECT_EQ(dash.out.find("is not printed on a terminal"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "-"));
  EXPECT_FALSE(fs::exists(dir / "-.seeds.json"));
}

}  // namespace
}  // namespace posbias
