// `posbias seeds --compare`: hop configurations side by side against hand computations on
// synthetic eval files (the t quantile of 2 degrees of freedom in closed form), a configuration
// of one seed (its value, no interval), the files it writes, and bad input through the binary:
// one line, exit 2 for usage and 1 for a bad file, never a crash.
#include "experiments/hops/hop_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using posbias_test::expect_error;
using posbias_test::expect_usage_error;

// Student's t 97.5% quantile for 2 degrees of freedom: (2p − 1)·√(2 / (4p(1 − p))), p = 0.975.
const double kT2 = 0.95 * std::sqrt(2.0 / (4 * 0.975 * 0.025));

// An eval of a `task` model at lengths 17 and 850: all hops `a17` and `a850`, hop 1 half that;
// chance 0.125 at 17 and 0.13 at 850.
json eval_file(const std::string& task, double a17, double a850) {
  return {
      {"task", task},
      {"accuracy",
       {{"17", {{"1", a17 / 2}, {"all", a17}}}, {"850", {{"1", a850 / 2}, {"all", a850}}}}},
      {"chance", {{"17", {{"1", 0.125}, {"all", 0.125}}}, {"850", {{"1", 0.13}, {"all", 0.13}}}}}};
}

struct HopCompareTest : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = posbias_test::scratch_path(
        "posbias_hop_compare", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const json& j) {
    std::ofstream(dir / name) << j.dump();
    return (dir / name).string();
  }
};

TEST_F(HopCompareTest, IntervalsPerConfigurationAgainstHandComputation) {
  // Rotary on every dim, 3 seeds: 850-token accuracy 0.4, 0.5, 0.6. No encoding, 1 seed.
  const std::string a = write("a0.json", eval_file("letter", 1.0, 0.4)) + "," +
                        write("a1.json", eval_file("letter", 0.9, 0.5)) + "," +
                        write("a2.json", eval_file("letter", 0.8, 0.6));
  const std::string b = write("b0.json", eval_file("letter", 1.0, 1.0));
  const HopComparison r = compare_hop_configurations(
      {parse_hop_configuration("rotary=all=" + a), parse_hop_configuration("none=" + b)});
  EXPECT_EQ(r.task, Task::kLetter);
  ASSERT_EQ(r.accuracy.size(), 2u);
  EXPECT_EQ(r.configurations[0].label, "rotary=all");  // split at the last '='
  EXPECT_EQ(r.configurations[0].eval.size(), 3u);
  const HopTable& t = r.accuracy[0];
  ASSERT_EQ(t.lengths, (std::vector<std::int64_t>{17, 850}));
  ASSERT_EQ(t.hops, (std::vector<std::string>{"1", "all"}));
  // 0.4, 0.5, 0.6: mean 0.5, sample sd 0.1, half width t·0.1/√3.
  const SeedInterval& i = t.cells[1][1].accuracy.interval;
  EXPECT_NEAR(i.mean, 0.5, 1e-12);
  EXPECT_NEAR(i.high - i.mean, kT2 * 0.1 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(i.mean - i.low, kT2 * 0.1 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(t.cells[1][0].accuracy.interval.mean, 0.25, 1e-12);  // hop 1
  EXPECT_DOUBLE_EQ(t.cells[1][1].chance, 0.13);
  EXPECT_EQ(t.cells[1][1].above_chance(), true);
  // One seed: its value, no interval; JSON null bounds.
  const SeedInterval& one = r.accuracy[1].cells[1][1].accuracy.interval;
  EXPECT_DOUBLE_EQ(one.mean, 1.0);
  EXPECT_TRUE(std::isnan(one.low));
  const json j = to_json(r);
  EXPECT_EQ(j["configurations"][1]["label"], "none");
  EXPECT_EQ(j["configurations"][1]["seeds"], 1);
  EXPECT_TRUE(j["configurations"][1]["accuracy"]["850"]["all"]["low"].is_null());
  EXPECT_EQ(j["configurations"][0]["files"].size(), 3u);
  EXPECT_NEAR(j["configurations"][0]["accuracy"]["850"]["all"]["mean"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(j["lengths"], json::parse("[17, 850]"));
}

// Two configurations (three rows with chance) over five lengths: every length is named on the
// x axis, not every k-th of them.
TEST_F(HopCompareTest, FigureNamesEveryLengthWhenLengthsOutnumberRows) {
  json e = eval_file("number", 1.0, 0.1);
  for (const char* l : {"32", "64", "128"}) e["accuracy"][l] = {{"1", 0.1}, {"all", 0.2}};
  const std::string a = write("w0.json", e), b = write("w1.json", e);
  const HopComparison r = compare_hop_configurations(
      {parse_hop_configuration("one=" + a), parse_hop_configuration("two=" + b)});
  ASSERT_EQ(r.lengths.size(), 5u);
  const fs::path stem = dir / "w";
  render_hop_comparison_figure(r, stem.string());
  const std::string gp = posbias_test::slurp(dir / "w_compare.gp");
  EXPECT_NE(gp.find("set xtics (\"17\" 0, \"32\" 1, \"64\" 2, \"128\" 3, \"850\" 4)\n"),
            std::string::npos)
      << gp;
}

TEST_F(HopCompareTest, FigureAndSummaryAtTheLengthsEveryConfigurationHas) {
  // The default evaluated at 17, 64 and 850 tokens, the ablation at 17 and 850 only.
  json more = eval_file("number", 1.0, 0.1);
  more["accuracy"]["64"] = {{"1", 0.1}, {"all", 0.2}};
  const std::string a = write("a0.json", more) + "," + write("a1.json", more);
  const std::string b = write("b0.json", eval_file("number", 1.0, 0.05));
  const HopComparison r = compare_hop_configurations(
      {parse_hop_configuration("default=" + a), parse_hop_configuration("none=" + b)});
  EXPECT_EQ(r.accuracy[0].lengths, (std::vector<std::int64_t>{17, 64, 850}));
  EXPECT_EQ(r.lengths, (std::vector<std::int64_t>{17, 850}));
  const fs::path stem = dir / "c";
  render_hop_comparison_figure(r, stem.string());
  // A heatmap of two columns, not three: 64 is left out of the figure. The first
  // configuration is the top row, chance (from the first configuration) the bottom one.
  const std::string gp = posbias_test::slurp(dir / "c_compare.gp");
  EXPECT_NE(gp.find("set xtics (\"17\" 0, \"850\" 1)\n"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set ytics (\"chance (uniform guess)\" 0, \"none (1 seed)\" 1, "
                    "\"default (2 seeds)\" 2)\n"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("\n1 2 0.100000\n"), std::string::npos) << gp;  // default at 850
  EXPECT_NE(gp.find("\n1 1 0.050000\n"), std::string::npos) << gp;  // none at 850
  EXPECT_NE(gp.find("\n1 0 0.130000\n"), std::string::npos) << gp;  // chance at 850
  EXPECT_EQ(gp.find("0.200000"), std::string::npos) << gp;          // the default at 64
  // No length in common: a bad run (exit 1), named.
  json other = eval_file("number", 1.0, 0.1);
  other["accuracy"] = {{"32", {{"1", 0.1}, {"all", 0.2}}}};
  const std::string c = write("c0.json", other);
  expect_error("seeds --compare a=" + a + " b=" + c, "share no input length", 1);
}

TEST_F(HopCompareTest, WritesJsonCsvAndFigure) {
  const std::string a = write("a0.json", eval_file("number", 0.9, 0.1)) + "," +
                        write("a1.json", eval_file("number", 0.8, 0.05));
  const std::string b = write("b0.json", eval_file("number", 0.95, 0.07)) + "," +
                        write("b1.json", eval_file("number", 0.9, 0.02));
  const fs::path stem = dir / "cmp";
  const auto r =
      posbias_test::run_cli("seeds --compare 'rotary 16, θ 1e4=" + a + "' 'no encoding=" + b +
                            "' --json " + (dir / "c.json").string() + " --csv " +
                            (dir / "c.csv").string() + " --plot " + stem.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // the summary goes to a terminal only (core/json_result.h)
  // The summary a terminal gets: each configuration's all-hop accuracy at 850 tokens.
  const std::string summary = hop_comparison_summary(
      compare_hop_configurations({parse_hop_configuration("rotary 16, θ 1e4=" + a),
                                  parse_hop_configuration("no encoding=" + b)}));
  EXPECT_EQ(posbias_test::lines(summary), 1) << summary;
  EXPECT_NE(summary.find("at 850 tokens:"), std::string::npos) << summary;
  EXPECT_NE(summary.find("no encoding 0.045 [-0.273, 0.363] (2 seeds)"), std::string::npos)
      << summary;
  std::ifstream in(dir / "c.json");
  const json j = json::parse(in);
  EXPECT_EQ(j["task"], "number");
  EXPECT_EQ(j["configurations"].size(), 2u);
  const std::string csv = posbias_test::slurp(dir / "c.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "label,seeds,length,hop,mean,low,high,chance");
  // 2 configurations × 2 lengths × 2 hops; the label with a comma quoted.
  EXPECT_EQ(posbias_test::lines(csv), 9);
  EXPECT_NE(csv.find("\"rotary 16, θ 1e4\",2,850,all,0.075,"), std::string::npos) << csv;
  for (const char* f : {"cmp_compare.svg", "cmp_compare.png", "cmp_compare.gp"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
}

TEST_F(HopCompareTest, BadInputIsOneLine) {
  const std::string n0 = write("n0.json", eval_file("number", 1, 0.1));
  const std::string n1 = write("n1.json", eval_file("number", 1, 0.2));
  const std::string l0 = write("l0.json", eval_file("letter", 1, 1));
  json no_accuracy = eval_file("number", 1, 0.1);
  no_accuracy.erase("accuracy");
  const std::string na = write("na.json", no_accuracy);
  json no_all = eval_file("number", 1, 0.1);
  for (const char* part : {"accuracy", "chance"})
    for (auto& [length, hops] : no_all[part].items()) hops.erase("all");
  const std::string nall = write("nall.json", no_all);
  // Usage (exit 2): no '=', an empty label or file, one configuration, a label or a file
  // twice, --compare beside other inputs.
  expect_usage_error("seeds --compare " + n0 + " a=" + n1, "LABEL=EVAL.json");
  expect_usage_error("seeds --compare =" + n0 + " a=" + n1, "LABEL=EVAL.json");
  expect_usage_error("seeds --compare a= b=" + n1, "LABEL=EVAL.json");
  expect_usage_error("seeds --compare a=" + n0 + ",,x b=" + n1, "an empty file name");
  expect_usage_error("seeds --compare a=" + n0, "2..32 configurations");
  expect_usage_error("seeds --compare a=" + n0 + " a=" + n1, "'a' is given twice");
  expect_usage_error("seeds --compare a=" + n0 + " b=" + n1 + "," + n0, "given twice");
  expect_usage_error("seeds --compare a=" + n0 + " b=" + n1 + " --eval " + n0, "without birth");
  // A bad file (exit 1): missing, of another task, missing a field, without all hops.
  expect_error("seeds --compare a=" + n0 + " b=" + (dir / "missing.json").string(), "missing.json",
               1);
  expect_error("seeds --compare a=" + n0 + " b=" + l0, "one task", 1);
  expect_error("seeds --compare a=" + n0 + " b=" + na, "missing eval field 'accuracy'", 1);
  expect_error("seeds --compare a=" + n0 + " b=" + nall, "no all-hops accuracy", 1);
}

}  // namespace
}  // namespace posbias
