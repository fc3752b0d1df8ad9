// birth --rescore: a fresh run re-scored gives every no-fit prediction again (positive control),
// the JSON's seed count, first-to-minimum ratio and the missing interval of a max are what they
// say, and files or options it cannot honour are refused in one line with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"

namespace {

namespace fs = std::filesystem;
using posbias_test::run_shell;
using posbias_test::slurp;

nlohmann::json read(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

void write(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(2); }

class BirthRescore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("birth_rescore_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const auto r = run_shell(std::string(POSBIAS_BIN) +
                             " birth --arch gpt2 --layers 3 --d-model 32 --heads 2 --length 40 "
                             "--seeds 2 --method hutchinson --probes 2 --json " +
                             (dir_ / "run.json").string());
    ASSERT_EQ(r.code, 0) << r.err;
  }
  void TearDown() override { fs::remove_all(dir_); }
  posbias_test::CliResult rescore(const fs::path& in, const std::string& extra = "") {
    return run_shell(std::string(POSBIAS_BIN) + " birth --rescore " + in.string() + extra +
                     " --json " + (dir_ / "out.json").string());
  }
  fs::path dir_;
};

TEST_F(BirthRescore, ReproducesEveryNoFitPrediction) {
  const auto r = rescore(dir_ / "run.json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json a = read(dir_ / "run.json"), b = read(dir_ / "out.json");
  ASSERT_EQ(a["nofit_variants"].size(), b["nofit_variants"].size());
  ASSERT_GE(a["nofit_variants"].size(), 6u);
  double worst = 0;
  int compared = 0;
  for (std::size_t i = 0; i < a["nofit_variants"].size(); ++i) {
    const auto &x = a["nofit_variants"][i], &y = b["nofit_variants"][i];
    ASSERT_EQ(x["estimator"], y["estimator"]);
    ASSERT_EQ(x["paths"], y["paths"]);
    for (const char* k : {"median_abs_log10_error", "max_abs_log10_error", "w1"}) {
      worst = std::max(worst, std::abs(x[k].get<double>() - y[k].get<double>()));
      ++compared;
    }
  }
  std::printf("%d statistics compared, worst difference %.3g\n", compared, worst);
  EXPECT_LE(worst, 1e-12);
  EXPECT_EQ(a["profile"], b["profile"]);
  EXPECT_EQ(a["nofit"]["profile"], b["nofit"]["profile"]);
  EXPECT_EQ(b["nofit"]["estimator"], "positions");
  EXPECT_EQ(a["seconds"], b["seconds"]);  // the measurement's, not the re-score's
  EXPECT_TRUE(b["rescore"]["seconds"].is_number());
  EXPECT_EQ(b["seeds"], 2);
  EXPECT_FALSE(b["nofit"].contains("max_abs_log10_error_ci"));
  // p_1 over the minimum of positions 1..q-1, recomputed here.
  const auto profile = b["profile"].get<std::vector<double>>();
  const double want = profile.front() / *std::min_element(profile.begin(), profile.end() - 1);
  EXPECT_NEAR(b["nofit"]["first_min_ratio"]["measured"].get<double>(), want, 1e-12 * want);
}

TEST_F(BirthRescore, RefusesWhatItCannotRebuild) {
  nlohmann::json j = read(dir_ / "run.json");
  j["config"]["layer_norm_epsilon"] = 0.125;  // no preset has it
  write(dir_ / "foreign.json", j);
  auto r = rescore(dir_ / "foreign.json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("rebuilds its config"), std::string::npos) << r.err;
  j = read(dir_ / "run.json");
  j["measurement"]["weights"] = "model.safetensors";
  write(dir_ / "checkpoint.json", j);
  r = rescore(dir_ / "checkpoint.json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("measured a checkpoint"), std::string::npos) << r.err;
  r = rescore(dir_ / "run.json", " --seeds 3");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("drop --seeds"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out.json"));
}

// birth --redraw draws the figure the measuring run drew, from the file alone: the same script
// but for its output name (the seed band, both path sums' fits and the no-fit predictions come
// from the file). A file whose plain causal control the file keeps no profile of, extra
// options and a missing --plot are refused in one line (exit 2).
TEST_F(BirthRescore, RedrawDrawsTheFigureTheRunDrew) {
  const std::string birth = std::string(POSBIAS_BIN) + " birth ";
  auto r = run_shell(birth +
                     "--arch gpt2 --layers 3 --d-model 32 --heads 2 --length 40 --seeds 2 "
                     "--method hutchinson --probes 2 --json " +
                     (dir_ / "live.json").string() + " --plot " + (dir_ / "live").string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_shell(birth + "--redraw " + (dir_ / "live.json").string() + " --plot " +
                (dir_ / "redrawn").string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::string live = slurp(dir_ / "live.gp"), redrawn = slurp(dir_ / "redrawn.gp");
  ASSERT_NE(live.find("no-fit theory with measured"), std::string::npos) << live;
  ASSERT_NE(live.find("theory, linear paths"), std::string::npos) << live;
  ASSERT_NE(live.find("\"live.svg\""), std::string::npos) << live;
  live.replace(live.find("\"live.svg\""), 10, "\"redrawn.svg\"");
  EXPECT_EQ(live, redrawn);
  EXPECT_TRUE(fs::exists(dir_ / "redrawn.png"));

  r = run_shell(birth + "--redraw " + (dir_ / "live.json").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--redraw needs --plot"), std::string::npos) << r.err;
  r = run_shell(birth + "--redraw " + (dir_ / "live.json").string() + " --seeds 3 --plot " +
                (dir_ / "x").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("drop --seeds"), std::string::npos) << r.err;
  nlohmann::json j = read(dir_ / "live.json");
  j["operator_control"] = j["nofit_variants"][0];  // a window, ALiBi or null-sink run's
  write(dir_ / "control.json", j);
  r = run_shell(birth + "--redraw " + (dir_ / "control.json").string() + " --plot " +
                (dir_ / "x").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("plain causal control"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.gp"));
}

// A birth --inputs kv result (the shipped kv28 one) redrawn: its depths heatmap, the needle's
// mean share per depth and checkpoint as the file holds them.
TEST_F(BirthRescore, RedrawDrawsAnAnswerInfluenceHeatmap) {
  const fs::path file =
      fs::path(POSBIAS_SOURCE_DIR) / "docs/data/retrieval-influence/kv28-influence.json";
  const auto r = run_shell(std::string(POSBIAS_BIN) + " birth --redraw " + file.string() +
                           " --plot " + (dir_ / "kv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string gp = slurp(dir_ / "kv_depths.gp");
  EXPECT_NE(gp.find("on the queried pair (L = 28, 4 pairs)"), std::string::npos) << gp;
  const nlohmann::json j = read(file);
  const double share = j["checkpoints"][0]["by_depth"][0]["needle"]["mean"].get<double>();
  EXPECT_NE(gp.find("\n0 0 " + std::to_string(share) + "\n"), std::string::npos) << share;
}

}  // namespace
