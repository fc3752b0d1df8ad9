// What birth prints without --json: its result JSON on a pipe or a file (as scripts read it),
// and on a terminal a short summary and how to get the JSON (core/json_result.h,
// experiments/birth/birth_summary.h).
#include "experiments/birth/birth_summary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "posbias/core/json_result.h"

namespace posbias {
namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

nlohmann::json sample_result() {
  return nlohmann::json::parse(R"({
    "config": {"model_type": "gpt2", "position_encoding": "learned", "n_layer": 2,
               "n_embd": 32, "n_head": 2},
    "measurement": {"length": 5, "seeds": 3, "weights": "init", "method": "exact"},
    "profile": [4.0, 2.5, 1.25, 3.0, 160.5],
    "nofit": {"argmin_measured": 3},
    "shares": {"primacy": {"mean": 0.125}, "middle": {"mean": 0.0625},
               "recency": {"mean": 0.25}, "query": {"mean": 0.5625},
               "unavailable": {"middle": "needs L >= 40"}},
    "u_test": {"verdict": "no U"}
  })");
}

TEST(BirthSummary, NamesTheModelTheProfileAndTheShares) {
  EXPECT_EQ(birth_summary(sample_result()),
            "birth: gpt2 (learned), layers 2, d 32, heads 2, L 5, seeds 3, at init, exact\n"
            "birth: influence (mean over seeds): 4 at position 1, minimum 1.25 at 3, 3 at 4, "
            "160.5 at the query 5\n"
            "birth: shares of the profile: primacy 0.125, middle 0.0625, recency 0.25, query "
            "0.5625\n");
}

TEST(BirthSummary, LeavesOutWhatTheJsonLacks) {
  nlohmann::json r = sample_result();
  r["config"] = {{"model_type", "qwen2"}, {"num_hidden_layers", 24}, {"hidden_size", 896}};
  r.erase("shares");
  r.erase("u_test");
  r.erase("nofit");
  r["profile"] = {1.0};
  EXPECT_EQ(birth_summary(r),
            "birth: qwen2, layers 24, d 896, L 5, seeds 3, at init, exact\n"
            "birth: influence (mean over seeds): 1 at position 1\n");
  EXPECT_EQ(birth_summary(nlohmann::json::object()), "");
  EXPECT_EQ(birth_summary(nlohmann::json::array()), "");
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
