// `posbias seeds` for hop runs: statistics over training seeds against hand computations on
// synthetic summary, eval, heads and discrepancy files of 3 seeds (the t quantiles from their
// closed forms for 1 and 2 degrees of freedom), the shipped example files, and bad input: each
// a one-line error of the right type (std::invalid_argument: usage, exit 2; std::runtime_error:
// a bad file, exit 1), never a crash.
#include "experiments/hops/hop_seeds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numbers>

#include "../cli_run.h"
#include "../run_folder.h"
#include "experiments/seeds/seeds_command.h"
#include "posbias/runfiles/metrics.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Student's t 97.5% quantiles in closed form: df = 1, tan(0.475π); df = 2, (2p − 1)·√(2 /
// (4p(1 − p))) at p = 0.975.
const double kT1 = std::tan(0.475 * std::numbers::pi);
const double kT2 = 0.95 * std::sqrt(2.0 / (4 * 0.975 * 0.025));

// Mean and half width of the 95% interval of 3 values by hand.
struct Hand {
  double mean, half;
};
Hand hand3(double a, double b, double c) {
  const double mean = (a + b + c) / 3;
  const double var =
      ((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean)) / 2;
  return {mean, kT2 * std::sqrt(var / 3)};
}

void expect_interval(const SeedStatistic& s, Hand h, const std::string& what) {
  EXPECT_NEAR(s.interval.mean, h.mean, 1e-12) << what;
  EXPECT_NEAR(s.interval.low, h.mean - h.half, 1e-9) << what;
  EXPECT_NEAR(s.interval.high, h.mean + h.half, 1e-9) << what;
}

json summary_file(const std::string& task, int seed, json crossing_90, json crossing_99,
                  json final_accuracy) {
  return {
      {"task", task},
      {"steps", 3000},
      {"config", train_config_to_json(train_config_from_json({{"seed", seed}, {"task", task}}))},
      {"metrics",
       {{"crossing_0.9", crossing_90},
        {"crossing_0.99", crossing_99},
        {"final", final_accuracy},
        {"final_step", 3000}}}};
}

// An eval of a Number model at lengths 17 and 64 (and 128 when `extra`): at each length hop 1
// has the all-hops accuracy minus 0.05, hop 2 minus 0.1; chance 0.125 when `with_chance`.
json eval_file(double a17, double a64, bool with_chance, bool extra = false) {
  json j{{"task", "number"}, {"lengths", {17, 64}}};
  auto row = [](double all) { return json{{"1", all - 0.05}, {"2", all - 0.1}, {"all", all}}; };
  j["accuracy"] = {{"17", row(a17)}, {"64", row(a64)}};
  j["controls"]["seen_jumps"]["accuracy"] = {{"17", row(a17 - 0.1)}, {"64", row(a64 + 0.2)}};
  if (extra) j["accuracy"]["128"] = row(0.5);
  if (with_chance) {
    const json chance{{"1", 0.125}, {"2", 0.125}, {"all", 0.125}};
    j["chance"] = {{"17", chance}, {"64", chance}, {"128", chance}};
    j["controls"]["seen_jumps"]["chance"] = {{"17", chance}, {"64", chance}};
  }
  return j;
}

// A heads --run result of a 2-layer, 1-head model: at each step, layer 0 has positional
// score `base + step / 1000` and the label from `labels0`; layer 1 is symbolic throughout.
json heads_file(const std::vector<std::int64_t>& steps, double base,
                const std::vector<std::string>& labels0) {
  json j{{"task", "number"}, {"layer_index", "0-based"}, {"checkpoints", json::array()}};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double p = base + static_cast<double>(steps[i]) / 1000;
    j["checkpoints"].push_back({{"step", steps[i]},
                                {"file", "x"},
                                {"heads",
                                 {{{"layer", 0},
                                   {"head", 0},
                                   {"positional", p},
                                   {"symbolic", 1 - p},
                                   {"label", labels0[i]}},
                                  {{"layer", 1},
                                   {"head", 0},
                                   {"positional", 0.01},
                                   {"symbolic", 0.99},
                                   {"label", "symbolic"},
                                   {"positional_ci", {0.0, 0.02}}}}}});
  }
  return j;
}

json gap_points(json g17, json g64) {
  return json::array({{{"length", 17}, {"median", g17}, {"n", 100}},
                      {{"length", 64}, {"median", g64}, {"n", 100}}});
}

// A discrepancy --run result: the auto rule's two heads (or one, when `same_head`).
json discrepancy_file(int positional_layer, double gap, bool same_head, json exponent) {
  json j{{"task", "number"},
         {"variant", "standard"},
         {"train_length", 17},
         {"lengths", {17, 64}},
         {"accuracy", {{"17", 1.0}, {"64", 0.2 + gap / 100}}},
         {"discrepancy", json::array()}};
  j["discrepancy"].push_back({{"layer", positional_layer},
                              {"head", 0},
                              {"kind", "positional"},
                              {"label", "positional"},
                              {"points", gap_points(gap, gap / 2)},
                              {"correct_points", gap_points(gap + 1, nullptr)},
                              {"exponent", {{"value", exponent}, {"ci", {nullptr, nullptr}}}}});
  if (!same_head)
    j["discrepancy"].push_back({{"layer", 11},
                                {"head", 0},
                                {"kind", "symbolic"},
                                {"label", "symbolic"},
                                {"points", gap_points(2 * gap, gap)}});
  return j;
}

// Each test writes its files into a fresh folder of its own.
struct HopSeedsTest : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = posbias_test::scratch_path(
        "posbias_hop_seeds", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  std::vector<std::string> write3(const std::string& stem, const std::vector<json>& files) {
    std::vector<std::string> out;
    for (std::size_t s = 0; s < files.size(); ++s)
      out.push_back(write(stem + std::to_string(s) + ".json", files[s].dump()));
    return out;
  }
};

TEST_F(HopSeedsTest, CrossingStepsWithNeverReachedSeeds) {
  HopSeedsOptions o;
  o.summary = write3("summary", {summary_file("number", 0, {{"1", 100}, {"2", 400}, {"all", 400}},
                                              {{"1", 500}, {"2", nullptr}, {"all", nullptr}},
                                              {{"1", 1.0}, {"2", 0.95}, {"all", 0.975}}),
                                 summary_file("number", 1, {{"1", 200}, {"2", 500}, {"all", 500}},
                                              {{"1", nullptr}, {"2", nullptr}, {"all", nullptr}},
                                              {{"1", 1.0}, {"2", 0.93}, {"all", 0.965}}),
                                 summary_file("number", 2, {{"1", 300}, {"2", 900}, {"all", 900}},
                                              {{"1", 700}, {"2", nullptr}, {"all", nullptr}},
                                              {{"1", 0.97}, {"2", 0.96}, {"all", 0.965}})});
  const HopSeedsResult r = summarize_hop_seeds(o);
  EXPECT_EQ(r.task, Task::kNumber);
  ASSERT_TRUE(r.training);
  const HopTraining& t = *r.training;
  ASSERT_EQ(t.hops, (std::vector<std::string>{"1", "2", "all"}));
  expect_interval(t.crossing_90[0], {200, kT2 * 100 / std::sqrt(3.0)}, "crossing_0.9 hop 1");
  expect_interval(t.crossing_90[1], hand3(400, 500, 900), "crossing_0.9 hop 2");
  // Hop 1 at 0.99: seed 1 never crossed; the interval is over 500 and 700 (df = 1).
  const SeedStatistic& c = t.crossing_99[0];
  EXPECT_EQ(c.interval.n, 2);
  EXPECT_TRUE(std::isnan(c.values[1]));
  EXPECT_NEAR(c.interval.mean, 600, 1e-12);
  EXPECT_NEAR(c.interval.high - 600, kT1 * std::sqrt(20000.0) / std::sqrt(2.0), 1e-6);
  EXPECT_EQ(t.crossing_99[1].interval.n, 0);
  expect_interval(t.final_accuracy[1], hand3(0.95, 0.93, 0.96), "final hop 2");
  EXPECT_EQ(t.training_seeds[2], std::optional<std::int64_t>(2));

  const json j = to_json(r);
  EXPECT_EQ(j["training"]["crossing_0.99"]["1"]["values"], json::parse("[500, null, 700]"));
  EXPECT_EQ(j["training"]["crossing_0.99"]["1"]["crossed"], 2);
  EXPECT_EQ(j["training"]["crossing_0.99"]["all"]["crossed"], 0);
  EXPECT_TRUE(j["training"]["crossing_0.99"]["all"]["mean"].is_null());
  EXPECT_EQ(j["files"]["summary"], o.summary);
  EXPECT_FALSE(j["files"].contains("eval"));
  // Without an eval the CSV holds the crossing steps.
  const std::string csv = hop_seeds_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "threshold,hop,mean,low,high,crossed");
  EXPECT_NE(csv.find("\n0.99,1,600,"), std::string::npos) << csv;
}

// A metrics.jsonl of hops 1 and 2 as train writes it (metrics_row_to_json): a text run's kind
// of row at step 0, without "acc" (skipped), then one row per step with hop 1 at acc1[i], hop 2
// at half of it.
std::string metrics_lines(const std::vector<std::int64_t>& steps, const std::vector<double>& acc1) {
  MetricsRow first;
  first.heldout_loss = 3.0;
  std::string out = metrics_row_to_json(first).dump() + "\n";
  for (std::size_t i = 0; i < steps.size(); ++i) {
    MetricsRow row;
    row.step = steps[i];
    row.loss = 1.0;
    row.acc =
        std::map<std::string, double>{{"1", acc1[i]}, {"2", acc1[i] / 2}, {"all", acc1[i] * 0.75}};
    out += metrics_row_to_json(row).dump() + "\n";
  }
  return out;
}

TEST_F(HopSeedsTest, TrainingCurvesOverCommonStepsAndTrainSeconds) {
  HopSeedsOptions o;
  std::vector<json> summaries;
  for (int s = 0; s < 3; ++s) {
    summaries.push_back(summary_file("number", s, {{"all", 100}}, {{"all", 200}}, {{"all", 1.0}}));
    summaries.back()["train_seconds"] = 100.0 * (s + 1);
  }
  summaries[2].erase("train_seconds");  // an older summary: the interval is over two seeds
  o.summary = write3("summary", summaries);
  // Seed 1 logs one step more (150) and seed 2 misses step 100: only step 50 is common.
  o.metrics = {write("m0.jsonl", metrics_lines({50, 100}, {0.2, 0.6})),
               write("m1.jsonl", metrics_lines({50, 100, 150}, {0.4, 0.8, 1.0})),
               write("m2.jsonl", metrics_lines({50, 150}, {0.3, 0.9}))};
  HopSeedsResult r = summarize_hop_seeds(o);
  ASSERT_TRUE(r.curves);
  EXPECT_EQ(r.curves->steps, (std::vector<std::int64_t>{50}));
  EXPECT_EQ(r.curves->hops, (std::vector<std::string>{"1", "2", "all"}));
  expect_interval(r.curves->accuracy[0][0], hand3(0.2, 0.4, 0.3), "hop 1 at step 50");
  expect_interval(r.curves->accuracy[0][1], hand3(0.1, 0.2, 0.15), "hop 2 at step 50");
  const SeedStatistic& seconds = r.training->train_seconds;
  EXPECT_EQ(seconds.interval.n, 2);
  EXPECT_NEAR(seconds.interval.mean, 150, 1e-12);
  EXPECT_NEAR(seconds.interval.high - 150, kT1 * std::sqrt(5000.0) / std::sqrt(2.0), 1e-6);

  // With every step shared, every step is kept, in order.
  o.metrics[2] = write("m2.jsonl", metrics_lines({50, 100}, {0.3, 0.7}));
  r = summarize_hop_seeds(o);
  EXPECT_EQ(r.curves->steps, (std::vector<std::int64_t>{50, 100}));
  expect_interval(r.curves->accuracy[1][2], hand3(0.45, 0.6, 0.525), "all hops at step 100");
  const json j = to_json(r);
  EXPECT_EQ(j["curves"]["steps"], json::parse("[50, 100]"));
  EXPECT_NEAR(j["curves"]["accuracy"]["1"][1]["mean"].get<double>(), 0.7, 1e-12);
  EXPECT_EQ(j["files"]["metrics"], o.metrics);
  EXPECT_NEAR(j["training"]["train_seconds"]["mean"].get<double>(), 150, 1e-12);
}

TEST_F(HopSeedsTest, EvalAccuracyAgainstChanceOverCommonLengths) {
  HopSeedsOptions o;
  // Seed 2 is an older file without chance levels, and has one more length.
  o.eval = write3("eval", {eval_file(1.0, 0.10, true), eval_file(0.9, 0.20, true),
                           eval_file(0.8, 0.15, false, true)});
  const HopSeedsResult r = summarize_hop_seeds(o);
  ASSERT_TRUE(r.eval);
  const HopTable& t = r.eval->accuracy;
  EXPECT_EQ(t.lengths, (std::vector<std::int64_t>{17, 64}));
  EXPECT_EQ(t.hops, (std::vector<std::string>{"1", "2", "all"}));
  expect_interval(t.cells[0][2].accuracy, hand3(1.0, 0.9, 0.8), "length 17, all");
  expect_interval(t.cells[1][0].accuracy, hand3(0.05, 0.15, 0.1), "length 64, hop 1");
  EXPECT_NEAR(t.cells[1][2].chance, 0.125, 1e-15);
  // 17: low 0.9 − 0.248 > 0.125; 64: low 0.15 − 0.124 < 0.125.
  EXPECT_EQ(t.cells[0][2].above_chance(), std::optional<bool>(true));
  EXPECT_EQ(t.cells[1][2].above_chance(), std::optional<bool>(false));
  ASSERT_EQ(r.eval->control, Variant::kSeenJumps);
  expect_interval(r.eval->control_accuracy.cells[1][2].accuracy, hand3(0.3, 0.4, 0.35),
                  "seen_jumps at 64");
  EXPECT_TRUE(r.eval->decoy_rate.empty());

  const json j = to_json(r);
  EXPECT_EQ(j["eval"]["accuracy"]["17"]["all"]["above_chance"], true);
  EXPECT_EQ(j["eval"]["control"]["name"], "seen_jumps");
  EXPECT_FALSE(j["eval"]["accuracy"].contains("128"));
  const std::string csv = hop_seeds_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "length,hop,mean,low,high,chance");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);  // header, 2 lengths × 3 hops
  EXPECT_NE(csv.find("\n17,all,0.9,"), std::string::npos) << csv;

  // No file with chance: no chance and no above_chance.
  o.eval = write3("old", {eval_file(1.0, 0.1, false), eval_file(0.9, 0.2, false)});
  const json old = to_json(summarize_hop_seeds(o));
  EXPECT_FALSE(old["eval"]["accuracy"]["17"]["all"].contains("chance"));
  EXPECT_FALSE(old["eval"]["accuracy"]["17"]["all"].contains("above_chance"));
}

TEST_F(HopSeedsTest, LetterDecoyRate) {
  auto letter = [](double rate) {
    const json row{{"1", 0.5}, {"all", 0.5}};
    return json{{"task", "letter"},
                {"accuracy", {{"17", row}}},
                {"controls",
                 {{"decoy",
                   {{"accuracy", {{"17", row}}},
                    {"chance", {{"17", row}}},
                    {"decoy_rate", {{"17", rate}}}}}}}};
  };
  HopSeedsOptions o;
  o.eval = write3("letter", {letter(0.1), letter(0.2), letter(0.6)});
  const HopSeedsResult r = summarize_hop_seeds(o);
  EXPECT_EQ(r.task, Task::kLetter);
  ASSERT_EQ(r.eval->control, Variant::kDecoy);
  ASSERT_EQ(r.eval->decoy_rate.size(), 1u);
  expect_interval(r.eval->decoy_rate[0], hand3(0.1, 0.2, 0.6), "decoy rate");
  // Equal accuracy and chance in every seed: zero width, low end not above chance.
  EXPECT_EQ(r.eval->control_accuracy.cells[0][0].above_chance(), std::optional<bool>(false));
}

TEST_F(HopSeedsTest, SettledStepOnHandcraftedLabels) {
  const std::vector<std::int64_t> steps{0, 10, 20, 30, 40};
  const HeadLabel m = HeadLabel::kMixed, p = HeadLabel::kPositional;
  EXPECT_EQ(settled_step(steps, {m, p, m, p, p}), 30);
  EXPECT_EQ(settled_step(steps, {m, m, m, m, m}), 0);
  EXPECT_EQ(settled_step(steps, {m, m, m, m, p}), 40);
  EXPECT_EQ(settled_step({7}, {m}), 7);
  EXPECT_THROW(settled_step(steps, {m}), std::invalid_argument);
}

TEST_F(HopSeedsTest, HeadScoresLabelsAndSettledSteps) {
  HopSeedsOptions o;
  // Seed 1 has an extra checkpoint at 150: the common steps are 100, 200, 300.
  o.heads =
      write3("heads",
             {heads_file({100, 200, 300}, 0.1, {"mixed", "positional", "positional"}),
              heads_file({100, 150, 200, 300}, 0.2, {"positional", "mixed", "mixed", "positional"}),
              heads_file({100, 200, 300}, 0.3, {"positional", "positional", "positional"})});
  const HopSeedsResult r = summarize_hop_seeds(o);
  ASSERT_TRUE(r.heads);
  const HopHeadsSummary& h = *r.heads;
  EXPECT_EQ(h.heads, (std::vector<std::string>{"L0.h0", "L1.h0"}));
  EXPECT_EQ(h.steps, (std::vector<std::int64_t>{100, 200, 300}));
  // Step 200, layer 0: 0.1 + 0.2, 0.2 + 0.2, 0.3 + 0.2.
  expect_interval(h.positional[1][0], hand3(0.3, 0.4, 0.5), "positional L0 at 200");
  expect_interval(h.symbolic[1][0], hand3(0.7, 0.6, 0.5), "symbolic L0 at 200");
  EXPECT_EQ(h.labels[0], std::vector<HeadLabel>(3, HeadLabel::kPositional));
  // Settled: seed 0 at 200; seed 1 at 300 (mixed at 200); seed 2 at 100.
  EXPECT_EQ(h.settled_step[0].values, (std::vector<double>{200, 300, 100}));
  expect_interval(h.settled_step[0], hand3(200, 300, 100), "settled L0");
  EXPECT_EQ(h.settled_step[1].values, (std::vector<double>{100, 100, 100}));
  const json j = to_json(r);
  EXPECT_EQ(j["heads"]["last_step"], 300);
  EXPECT_EQ(j["heads"]["settled_step"]["L0.h0"]["values"], json::parse("[200, 300, 100]"));
  EXPECT_NEAR(j["heads"]["steps"][0]["positional"]["L1.h0"]["mean"].get<double>(), 0.01, 1e-15);
}

TEST_F(HopSeedsTest, DiscrepancyRolesGapsAndExponents) {
  HopSeedsOptions o;
  // Seed 2's auto rule picked one head for both roles: the file lists it once.
  o.discrepancy =
      write3("disc", {discrepancy_file(1, 4.0, false, -1.0), discrepancy_file(2, 6.0, false, -2.0),
                      discrepancy_file(1, 8.0, true, nullptr)});
  const HopSeedsResult r = summarize_hop_seeds(o);
  ASSERT_TRUE(r.discrepancy);
  const HopDiscrepancySummary& d = *r.discrepancy;
  EXPECT_EQ(d.variant, Variant::kStandard);
  EXPECT_EQ(d.train_length, 17);
  EXPECT_EQ(d.lengths, (std::vector<std::int64_t>{17, 64}));
  expect_interval(d.accuracy[1], hand3(0.24, 0.26, 0.28), "accuracy at 64");
  ASSERT_EQ(d.roles.size(), 2u);
  const HopRoleGaps& p = d.roles[0];
  EXPECT_EQ(hop_role_key(p.role), "positional");
  EXPECT_EQ(hop_role_title(p.role), "most positional head");  // the docs' name, in the figure
  EXPECT_EQ(p.heads, (std::vector<std::string>{"L1.h0", "L2.h0", "L1.h0"}));
  expect_interval(p.median_gap[0], hand3(4, 6, 8), "positional gap at 17");
  expect_interval(p.median_gap[1], hand3(2, 3, 4), "positional gap at 64");
  ASSERT_TRUE(p.has_correct);
  expect_interval(p.correct_median_gap[0], hand3(5, 7, 9), "correct gap at 17");
  EXPECT_EQ(p.correct_median_gap[1].interval.n, 0);  // every median null
  // The exponent: −1, −2 and null: mean −1.5 over two seeds.
  EXPECT_EQ(p.exponent.interval.n, 2);
  EXPECT_NEAR(p.exponent.interval.mean, -1.5, 1e-12);
  EXPECT_NEAR(p.exponent.interval.high + 1.5, kT1 * std::sqrt(0.5) / std::sqrt(2.0), 1e-9);
  const HopRoleGaps& s = d.roles[1];
  EXPECT_EQ(hop_role_key(s.role), "symbolic");
  EXPECT_EQ(hop_role_title(s.role), "most symbolic head");
  EXPECT_EQ(s.heads, (std::vector<std::string>{"L11.h0", "L11.h0", "L1.h0"}));
  // Seed 2's symbolic role is its one head: gap 8 at 17, and that head's correct-only gaps.
  expect_interval(s.median_gap[0], hand3(8, 12, 8), "symbolic gap at 17");
  EXPECT_TRUE(s.has_correct);
  EXPECT_EQ(s.correct_median_gap[0].interval.n, 1);
  EXPECT_EQ(s.exponent.interval.n, 0);
  const json j = to_json(r);
  EXPECT_EQ(j["discrepancy"]["roles"]["symbolic"]["correct_median_gap"]["17"]["values"],
            json::parse("[null, null, 9.0]"));
  EXPECT_EQ(j["discrepancy"]["roles"]["positional"]["exponent"]["n"], 2);
}

// Files a seed-0 Number run of an earlier build wrote (tests/hops/data; before chance levels,
// exponents and variants were logged) read as two seeds with identical values: zero-width
// intervals.
TEST_F(HopSeedsTest, ReadsFilesOfAnEarlierBuild) {
  const fs::path data = fs::path(POSBIAS_SOURCE_DIR) / "tests" / "hops" / "data";
  auto twice = [&](const fs::path& file, const std::string& stem) {
    std::vector<std::string> out;
    for (const char* s : {"0", "1"}) {
      fs::copy_file(file, dir / (stem + s + ".json"));
      out.push_back((dir / (stem + s + ".json")).string());
    }
    return out;
  };
  HopSeedsOptions o;
  o.summary = twice(data / "number_summary.json", "summary");
  {  // The second copy stands for seed 1: two places of one seed are refused.
    json second = json::parse(posbias_test::slurp(o.summary[1]));
    second["config"]["seed"] = 1;
    std::ofstream(o.summary[1]) << second.dump();
  }
  o.eval = twice(data / "number_eval.json", "eval");
  o.heads = twice(data / "number_heads.json", "heads");
  o.discrepancy = twice(data / "number_discrepancy.json", "disc");
  const json j = to_json(summarize_hop_seeds(o));
  EXPECT_EQ(j["seeds"], 2);
  EXPECT_EQ(j["training"]["crossing_0.9"]["all"]["mean"], 800.0);
  EXPECT_EQ(j["training"]["crossing_0.9"]["all"]["low"], 800.0);
  EXPECT_EQ(j["eval"]["accuracy"]["32"]["2"]["mean"], 0.29);
  EXPECT_FALSE(j["eval"]["accuracy"]["32"]["2"].contains("chance"));
  EXPECT_EQ(j["heads"]["last_step"], 3000);
  EXPECT_EQ(j["heads"]["labels"]["L1.h0"], json::parse(R"(["positional", "positional"])"));
  EXPECT_EQ(j["discrepancy"]["roles"]["positional"]["heads"], json::parse(R"(["L1.h0", "L1.h0"])"));
  EXPECT_EQ(j["discrepancy"]["variant"], "standard");
  EXPECT_TRUE(j["discrepancy"]["train_length"].is_null());
  // The eval, heads and discrepancy files name a run that is not here: their configurations
  // could not be checked, and the summary says so.
  EXPECT_EQ(j["unchecked_configurations"], 6);
}

// The error of `f`: its type, and one line that holds every part of `needles`.
template <typename Error>
void expect_one_line(const std::function<void()>& f, const std::vector<std::string>& needles) {
  try {
    f();
    ADD_FAILURE() << "no error; wanted one with " << needles.front();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    for (const std::string& n : needles) EXPECT_NE(what.find(n), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

// Runs that differ in anything but the seed are not seeds of one configuration: a d 64 /
// 300-step Number run beside a d 32 / 100-step one is refused in one line naming both files
// and the first field that differs, whether the configurations are in the files (summary.json)
// or in the runs' train.json the files name (eval, heads, discrepancy); so are one seed given
// twice and files of one seed place that are of different seeds. Runs that differ only in the
// seed pool (the negative control).
TEST_F(HopSeedsTest, RefusesRunsOfDifferentConfigurations) {
  auto config = [](int seed, int d_model, int steps) {
    TrainConfig c;
    c.seed = static_cast<std::uint64_t>(seed);
    c.d_model = d_model;
    c.steps = steps;
    c.layers = 2;
    return c;
  };
  auto summary = [&](const TrainConfig& c) {
    json j = summary_file("number", 0, {{"all", 100}}, {{"all", 200}}, {{"all", 1.0}});
    j["config"] = train_config_to_json(c);
    return j;
  };
  std::vector<std::string> summaries =
      write3("summary", {summary(config(0, 64, 300)), summary(config(1, 32, 100))});
  HopSeedsOptions o;
  o.summary = summaries;
  const std::string needle = "are not seeds of one configuration: their runs' d_model is 32 and 64";
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); },
                                      {summaries[1], summaries[0], needle});
  posbias_test::expect_error("seeds --summary " + summaries[0] + " " + summaries[1], needle, 1);
  // The same seed twice.
  o.summary = write3("same", {summary(config(4, 64, 300)), summary(config(4, 64, 300))});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); },
                                      {"both runs of training seed 4"});
  // Negative control: only the seed differs.
  o.summary = write3("good", {summary(config(0, 64, 300)), summary(config(1, 64, 300))});
  EXPECT_EQ(summarize_hop_seeds(o).seeds, 2u);

  // Eval results name their runs; the runs' train.json hold the configurations.
  auto run = [&](const std::string& name, const TrainConfig& c) {
    return posbias_test::write_run_folder(dir / name, c);
  };
  auto eval = [](const std::string& run_dir) {
    json j = eval_file(1.0, 0.5, true);
    j["run"] = run_dir;
    return j;
  };
  const std::string r0 = run("run0", config(0, 64, 300)), r1 = run("run1", config(1, 32, 100)),
                    r2 = run("run2", config(2, 64, 300));
  HopSeedsOptions e;
  e.eval = write3("eval_bad", {eval(r0), eval(r1)});
  expect_one_line<std::runtime_error>(
      [&] { summarize_hop_seeds(e); },
      {e.eval[1], e.eval[0], needle, (fs::path(r1) / "train.json").string()});
  // Heads and discrepancy results too, and across options: an eval of seed 2 in the place of
  // the seed-0 summary.
  json heads0 = heads_file({100}, 0.1, {"positional"}), heads1 = heads0;
  heads0["source"] = {{"run", r0}};
  heads1["source"] = {{"run", r1}};
  HopSeedsOptions h;
  h.heads = write3("heads", {heads0, heads1});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(h); }, {"d_model"});
  json disc0 = discrepancy_file(1, 4.0, false, -1.0), disc1 = disc0;
  disc0["run"] = r0;
  disc1["run"] = r1;
  HopSeedsOptions d;
  d.discrepancy = write3("disc", {disc0, disc1});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(d); }, {"d_model"});
  HopSeedsOptions order;
  order.summary = write3("order", {summary(config(0, 64, 300)), summary(config(2, 64, 300))});
  order.eval = write3("eval_order", {eval(r2), eval(r0)});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(order); },
                                      {"in the same place", "same seed order"});
  // Negative control: evals of runs that differ only in the seed, in the summaries' order.
  order.eval = write3("eval_good", {eval(r0), eval(r2)});
  const HopSeedsResult good = summarize_hop_seeds(order);
  EXPECT_EQ(good.seeds, 2u);
  EXPECT_FALSE(to_json(good).contains("unchecked_configurations"));
}

// A field the record writes only when set (a remedy's) counts too: a run trained with
// --middle-weight 3 beside one trained without is refused, in either order.
TEST_F(HopSeedsTest, RefusesARemedyRunBesideItsBaseline) {
  TrainConfig base, remedy;
  remedy.seed = 1;
  remedy.middle_weight = 3.0;
  auto summary = [](const TrainConfig& c) {
    json j = summary_file("number", 0, {{"all", 100}}, {{"all", 200}}, {{"all", 1.0}});
    j["config"] = train_config_to_json(c);
    return j;
  };
  HopSeedsOptions o;
  o.summary = write3("summary", {summary(base), summary(remedy)});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); },
                                      {"their runs' middle_weight is 3.0 and unset"});
  o.summary = write3("reversed", {summary(remedy), summary(base)});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); },
                                      {"their runs' middle_weight is unset and 3.0"});
  // Negative control: both runs with the remedy.
  base.middle_weight = 3.0;
  o.summary = write3("both", {summary(base), summary(remedy)});
  EXPECT_EQ(summarize_hop_seeds(o).seeds, 2u);
}

// A configuration is read strictly, in summary.json and in the train.json of the run an eval
// names: a mistyped field is refused in one line naming the file and the field, not taken for
// a run whose configuration is unknown.
TEST_F(HopSeedsTest, RefusesAMistypedConfiguration) {
  const std::string field = "config field 'd_model' must be a number (an integer)";
  json mistyped = summary_file("number", 1, {{"all", 100}}, {{"all", 200}}, {{"all", 1.0}});
  mistyped["config"]["d_model"] = "64";
  HopSeedsOptions o;
  o.summary =
      write3("summary",
             {summary_file("number", 0, {{"all", 100}}, {{"all", 200}}, {{"all", 1.0}}), mistyped});
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); },
                                      {"'" + o.summary[1] + "': summary field 'config': " + field});
  TrainConfig c;
  const std::string r0 = posbias_test::write_run_folder(dir / "run0", c);
  c.seed = 1;
  const std::string r1 = posbias_test::write_run_folder(dir / "run1", c);
  const fs::path header = fs::path(r1) / "train.json";
  json j = json::parse(posbias_test::slurp(header));
  j["config"]["d_model"] = "64";
  std::ofstream(header) << j.dump(2);
  json e0 = eval_file(1.0, 0.5, true), e1 = e0;
  e0["run"] = r0;
  e1["run"] = r1;
  HopSeedsOptions e;
  e.eval = write3("eval", {e0, e1});
  const std::string needle = "'" + header.string() + "': train.json field 'config': " + field;
  expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(e); }, {needle});
  posbias_test::expect_error("seeds --eval " + e.eval[0] + " " + e.eval[1], needle, 1);
}

TEST_F(HopSeedsTest, BadInputIsOneLineError) {
  using Usage = std::invalid_argument;
  using Bad = std::runtime_error;
  const auto summaries =
      write3("summary", {summary_file("number", 0, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}}),
                         summary_file("number", 1, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}}),
                         summary_file("number", 2, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}})});
  const auto evals = write3("eval", {eval_file(1, 0.5, true), eval_file(1, 0.5, true)});
  // The summary of these files (summary, eval, heads, discrepancy), to run later.
  auto run = [](std::vector<std::string> summary, std::vector<std::string> eval = {},
                std::vector<std::string> heads = {}, std::vector<std::string> discrepancy = {}) {
    HopSeedsOptions o;
    o.summary = std::move(summary);
    o.eval = std::move(eval);
    o.heads = std::move(heads);
    o.discrepancy = std::move(discrepancy);
    return [o] { summarize_hop_seeds(o); };
  };
  // Usage: counts, too few seeds, nothing given, a file twice, hop options with birth files.
  expect_one_line<Usage>(run(summaries, evals), {"--eval has 2 files but --summary has 3"});
  expect_one_line<Usage>(run({}, {evals[0]}), {"2..1024", "--eval", "got 1"});
  expect_one_line<Usage>(run({}), {"at least one of --summary"});
  expect_one_line<Usage>(run({}, {evals[0], evals[0]}), {"given twice"});
  // `posbias seeds` with neither birth files nor hop files.
  expect_one_line<Usage>([] { run_seeds(seeds_mode(SeedsFlags{})); },
                         {"birth --run", "--discrepancy"});
  SeedsFlags text;
  text.birth = {evals[0], evals[1]};
  text.heads = {evals[0], evals[1]};
  expect_one_line<Usage>([&] { seeds_mode(text); }, {"without birth files"});

  // Mixed tasks: the file is named.
  json letter = summary_file("letter", 1, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}});
  const std::string l = write("letter.json", letter.dump());
  expect_one_line<Bad>(run({summaries[0], l}), {l, "letter", "one task"});
  // Across kinds too: number summaries, a letter eval.
  json letter_eval = eval_file(1, 0.5, true);
  letter_eval["task"] = "letter";
  letter_eval["controls"] = {{"decoy", {{"accuracy", letter_eval["accuracy"]}}}};
  const std::string le = write("letter_eval.json", letter_eval.dump());
  expect_one_line<Bad>(run({summaries[0], summaries[1]}, {evals[0], le}), {le, "one task"});
  // A missing field, named with where it sits.
  json no_final = summary_file("number", 1, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}});
  no_final["metrics"].erase("final");
  const std::string nf = write("no_final.json", no_final.dump());
  expect_one_line<Bad>(run({summaries[0], nf}), {nf, "'metrics.final'"});
  // A bad value: a crossing that is neither a step nor null; an accuracy above 1.
  json bad_step = summary_file("number", 1, {{"all", "soon"}}, {{"all", 2}}, {{"all", 1.0}});
  const std::string bs = write("bad_step.json", bad_step.dump());
  expect_one_line<Bad>(run({summaries[0], bs}), {bs, "metrics.crossing_0.9.all"});
  json high = eval_file(1, 0.5, true);
  high["accuracy"]["17"]["1"] = 1.5;
  const std::string hi = write("high.json", high.dump());
  expect_one_line<Bad>(run({}, {evals[0], hi}), {hi, "accuracy.17.1", "0..1"});
  // Not JSON; a file that does not exist.
  const std::string nj = write("not.json", "{\"task\": \"number\", ");
  expect_one_line<Bad>(run({}, {evals[0], nj}), {nj, "not valid JSON"});
  expect_one_line<Bad>(run({}, {evals[0], (dir / "missing.json").string()}), {"missing.json"});
  // A text birth --run result given as an eval, and a text eval.
  const std::string birth = write(
      "birth.json",
      json{{"target", "hidden"}, {"length", 10}, {"query", 10}, {"checkpoints", json::array()}}
          .dump());
  expect_one_line<Bad>(run({}, {evals[0], birth}), {birth, "no \"task\"", "eval --run"});
  const std::string text_eval =
      write("text_eval.json", json{{"task", "text"}, {"bits_per_byte", 2.0}}.dump());
  expect_one_line<Bad>(run({}, {evals[0], text_eval}), {text_eval, "not a hop task"});
  // Heads files of different models; discrepancy files of different variants.
  const std::string h0 = write("h0.json", heads_file({100}, 0.1, {"mixed"}).dump());
  json three_layers = heads_file({100}, 0.1, {"mixed"});
  three_layers["checkpoints"][0]["heads"].push_back(three_layers["checkpoints"][0]["heads"][1]);
  three_layers["checkpoints"][0]["heads"][2]["layer"] = 2;
  const std::string h1 = write("h1.json", three_layers.dump());
  expect_one_line<Bad>(run({}, {}, {h0, h1}), {h1, "other heads"});
  // A head with a label that is none, or past the largest index; a discrepancy of a variant with
  // no name. The label's refusal names the field, the labels there are and the near miss.
  json unlabelled = heads_file({100}, 0.1, {"mixed"});
  unlabelled["checkpoints"][0]["heads"][0]["label"] = "positonal";
  const std::string hu = write("hu.json", unlabelled.dump());
  expect_one_line<Bad>(run({}, {}, {h0, hu}),
                       {hu,
                        "'checkpoints.0.heads.0.label': unknown head label 'positonal' (use "
                        "reflexive, uniform, positional, symbolic or mixed); did you mean "
                        "'positional'?"});
  json far = heads_file({100}, 0.1, {"mixed"});
  far["checkpoints"][0]["heads"][0]["layer"] = 100001;
  const std::string hf = write("hf.json", far.dump());
  expect_one_line<Bad>(run({}, {}, {h0, hf}), {hf, "must be in 0..100000"});
  json no_variant = discrepancy_file(1, 4.0, false, -1.0);
  no_variant["variant"] = "";
  const std::string dv = write("dv.json", no_variant.dump());
  const std::string ds = write("ds.json", discrepancy_file(1, 4.0, false, -1.0).dump());
  expect_one_line<Bad>(run({}, {}, {}, {ds, dv}),
                       {dv, "unknown variant '' (use standard, seen_jumps or decoy)"});
  // Metrics: without summaries; a line that is not JSON; steps that do not increase; an
  // accuracy above 1; no evaluation line at all; not an object; a field train never writes.
  const std::string m0 = write("m0.jsonl", metrics_lines({50}, {0.5}));
  auto run_metrics = [&](std::vector<std::string> metrics, std::vector<std::string> summary) {
    HopSeedsOptions o;
    o.summary = std::move(summary);
    o.metrics = std::move(metrics);
    return [o] { summarize_hop_seeds(o); };
  };
  const std::vector<std::string> two = {summaries[0], summaries[1]};
  const std::string m1 = write("m1.jsonl", metrics_lines({50}, {0.5}));
  expect_one_line<Usage>(run_metrics({m0, m1}, {}), {"--metrics needs --summary"});
  const std::string cut = write("cut.jsonl", metrics_lines({50}, {0.5}) + "{\"step\": 1");
  expect_one_line<Bad>(run_metrics({m0, cut}, two), {cut, "line 3", "not valid JSON"});
  const std::string back = write("back.jsonl", metrics_lines({100, 50}, {0.5, 0.6}));
  expect_one_line<Bad>(run_metrics({m0, back}, two), {back, "line 3: step 50", "step 100"});
  const std::string over = write("over.jsonl", metrics_lines({50}, {1.5}));
  expect_one_line<Bad>(run_metrics({m0, over}, two), {over, "line 2: acc.1", "0..1"});
  const std::string none = write("none.jsonl", metrics_lines({}, {}) + "\n");
  expect_one_line<Bad>(run_metrics({m0, none}, two), {none, "held-out accuracy"});
  const std::string array = write("array.jsonl", "[1, 2]\n");
  expect_one_line<Bad>(run_metrics({m0, array}, two), {array, "line 1: ", "object"});
  const std::string foreign =
      write("foreign.jsonl", "{\"step\": 0, \"loss\": 1, \"lr\": 0, \"accuracy\": 1}\n");
  expect_one_line<Bad>(run_metrics({m0, foreign}, two), {foreign, "line 1: ", "accuracy"});

  json control = discrepancy_file(1, 4.0, false, -1.0);
  control["variant"] = "seen_jumps";
  const std::string d0 = write("d0.json", discrepancy_file(1, 4.0, false, -1.0).dump());
  const std::string d1 = write("d1.json", control.dump());
  expect_one_line<Bad>(run({}, {}, {}, {d0, d1}), {d1, "seen_jumps", "--variant"});
}

// threshold_sensitivity over seeds: head counts per threshold with intervals, each seed's
// labels, and only the thresholds every seed lists.
TEST_F(HopSeedsTest, ThresholdSensitivityOverSeeds) {
  // Seed s: at 0.8 both layers pure (L0 positional, L1 symbolic); at 0.9 L0 is pure in seeds
  // 1 and 2 only; seed 2 alone lists 0.95.
  auto with_thresholds = [](int seed) {
    json j = heads_file({100, 200}, 0.1, {"mixed", "positional"});
    const json l0 = seed == 0 ? json::array() : json::array({"L0.h0"});
    j["threshold_sensitivity"] = {
        {{"threshold", 0.8}, {"final", {{"positional", {"L0.h0"}}, {"symbolic", {"L1.h0"}}}}},
        {{"threshold", 0.9}, {"final", {{"positional", l0}, {"symbolic", {"L1.h0"}}}}}};
    if (seed == 2)
      j["threshold_sensitivity"].push_back(
          {{"threshold", 0.95},
           {"final", {{"positional", json::array()}, {"symbolic", json::array()}}}});
    return j;
  };
  HopSeedsOptions o;
  o.heads = write3("heads", {with_thresholds(0), with_thresholds(1), with_thresholds(2)});
  const HopSeedsResult r = summarize_hop_seeds(o);
  const auto& t = r.heads->thresholds;
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].threshold, 0.8);
  expect_interval(t[0].positional_heads, {1, 0}, "0.8 positional heads");
  expect_interval(t[1].positional_heads, hand3(0, 1, 1), "0.9 positional heads");
  const std::optional<HeadLabel> p = HeadLabel::kPositional, s = HeadLabel::kSymbolic;
  EXPECT_EQ(t[1].labels[0], (std::vector<std::optional<HeadLabel>>{std::nullopt, p, p}));
  EXPECT_EQ(t[1].labels[1], (std::vector<std::optional<HeadLabel>>{s, s, s}));
  const json sensitivity = to_json(r)["heads"]["threshold_sensitivity"];
  ASSERT_EQ(sensitivity.size(), 2u);
  EXPECT_EQ(sensitivity[1]["labels"]["L0.h0"],
            json::parse(R"([null, "positional", "positional"])"));
  EXPECT_EQ(sensitivity[1]["positional_heads"]["values"], json::parse("[0, 1, 1]"));

  // Bad: a head the checkpoints do not have, a threshold above 1, thresholds out of order.
  auto bad = [&](const std::string& name, const std::function<void(json&)>& change,
                 std::vector<std::string> message) {
    json j = with_thresholds(1);
    change(j);
    o.heads[1] = write(name, j.dump());
    message.insert(message.begin(), o.heads[1]);
    expect_one_line<std::runtime_error>([&] { summarize_hop_seeds(o); }, message);
  };
  bad("unknown.json",
      [](json& j) { j["threshold_sensitivity"][0]["final"]["positional"][0] = "L7.h0"; },
      {"'L7.h0'", "not a head"});
  bad("above.json", [](json& j) { j["threshold_sensitivity"][1]["threshold"] = 1.5; },
      {"threshold_sensitivity[].threshold", "(0, 1]"});
  bad("order.json", [](json& j) { j["threshold_sensitivity"][1]["threshold"] = 0.7; },
      {"must increase"});
}

// Every node of every kind of file replaced by a value of another type, or removed: the
// summary either accepts it (an optional field) or refuses it with std::runtime_error, never
// another exception or a crash.
TEST_F(HopSeedsTest, NoCrashOnMutatedFiles) {
  json heads = heads_file({100, 200}, 0.1, {"mixed", "positional"});
  heads["threshold_sensitivity"] = {
      {{"threshold", 0.9}, {"final", {{"positional", {"L0.h0"}}, {"symbolic", {"L1.h0"}}}}}};
  const std::vector<std::pair<std::string, json>> kinds = {
      {"summary", summary_file("number", 0, {{"1", 1}, {"all", nullptr}}, {{"all", 2}},
                               {{"1", 1.0}, {"all", 1.0}})},
      {"eval", eval_file(1.0, 0.5, true)},
      {"heads", heads},
      {"discrepancy", discrepancy_file(1, 4.0, false, -1.0)}};
  int refused = 0, tried = 0;
  for (const auto& [kind, good] : kinds) {
    const std::string ok = write(kind + "_ok.json", good.dump());
    std::vector<json> mutants;
    const json flat = good.flatten();
    for (const auto& [pointer, value] : flat.items()) {
      const json::json_pointer p(pointer);
      for (const json& other : {json("x"), json(nullptr), json(-1), json::array(), json(1e300)}) {
        json m = good;
        m[p] = other;
        mutants.push_back(m);
      }
      json removed = good;
      json& parent = removed[p.parent_pointer()];
      if (parent.is_array())
        parent.erase(std::stoul(p.back()));
      else
        parent.erase(p.back());
      mutants.push_back(removed);
    }
    for (const json& m : mutants) {
      const std::string bad = write(kind + "_bad.json", m.dump());
      HopSeedsOptions o;
      std::vector<std::string>& files = kind == "summary" ? o.summary
                                        : kind == "eval"  ? o.eval
                                        : kind == "heads" ? o.heads
                                                          : o.discrepancy;
      files = {ok, bad};
      ++tried;
      try {
        const HopSeedsResult r = summarize_hop_seeds(o);
        to_json(r).dump();
        hop_seeds_csv(r);
      } catch (const std::runtime_error& e) {
        ++refused;
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
      } catch (const std::exception& e) {
        ADD_FAILURE() << kind << " " << m.dump() << ": " << e.what();
      }
    }
  }
  // Most mutations break a required field.
  EXPECT_GT(refused, tried / 2) << refused << " of " << tried;
}

TEST_F(HopSeedsTest, WritesJsonCsvAndFigures) {
  HopSeedsOptions o;
  o.summary =
      write3("summary", {summary_file("number", 0, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}}),
                         summary_file("number", 1, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}}),
                         summary_file("number", 2, {{"all", 1}}, {{"all", 2}}, {{"all", 1.0}})});
  o.metrics = {write("m0.jsonl", metrics_lines({50, 100}, {0.2, 0.6})),
               write("m1.jsonl", metrics_lines({50, 100}, {0.4, 0.8})),
               write("m2.jsonl", metrics_lines({50, 100}, {0.3, 0.9}))};
  o.eval = write3(
      "eval", {eval_file(1.0, 0.1, true), eval_file(0.9, 0.2, true), eval_file(0.8, 0.15, true)});
  o.heads = write3("heads", {heads_file({100, 200}, 0.1, {"mixed", "positional"}),
                             heads_file({100, 200}, 0.2, {"mixed", "positional"}),
                             heads_file({100, 200}, 0.3, {"positional", "positional"})});
  o.discrepancy =
      write3("disc", {discrepancy_file(1, 4.0, false, -1.0), discrepancy_file(1, 6.0, false, -2.0),
                      discrepancy_file(1, 8.0, false, -1.5)});
  o.json = (dir / "s.json").string();
  o.csv = (dir / "s.csv").string();
  o.plot = (dir / "s").string();
  run_hop_seeds(o);
  std::ifstream in(o.json);
  const json j = json::parse(in);
  EXPECT_EQ(j["seeds"], 3);
  EXPECT_EQ(j["task"], "number");
  for (const char* f :
       {"s.csv", "s_training.svg", "s_training.png", "s_eval.svg", "s_eval.png", "s_eval.gp",
        "s_heads.svg", "s_heads.png", "s_discrepancy.svg", "s_discrepancy.png"})
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  // Bands for all hops and the control only (1-hop's and 2-hop's would cover them): two.
  const std::string gp = posbias_test::slurp(dir / "s_eval.gp");
  std::size_t bands = 0;
  for (auto at = gp.find("filledcurves"); at != std::string::npos;
       at = gp.find("filledcurves", at + 1))
    ++bands;
  EXPECT_EQ(bands, 2u);
  // The hop counts are an ordered series: the sequential map, named on a colour bar.
  for (const char* f : {"s_eval.gp", "s_training.gp"}) {
    const std::string script = posbias_test::slurp(dir / f);
    EXPECT_NE(script.find("set cblabel \"hops\""), std::string::npos) << f;
    EXPECT_NE(script.find("lc palette cb 1 notitle"), std::string::npos) << f;  // 2-hop
    EXPECT_EQ(script.find("title \"1-hop\""), std::string::npos) << f;
  }
  // Without an eval or a summary there is no table for --csv.
  o.eval.clear();
  o.summary.clear();
  o.metrics.clear();
  expect_one_line<std::invalid_argument>([&] { run_hop_seeds(o); }, {"--csv"});
}

}  // namespace
}  // namespace posbias
