// `posbias seeds`: statistics over training seeds against hand computations on synthetic
// birth --run and eval results, the common steps, the paired change, and bad input (one line,
// exit 2 for usage, 1 for a file that is not a result).
#include "experiments/seeds/seeds_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "../run_folder.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

// A birth --run result of length 10 (the query at position 9) whose checkpoint at `steps[k]` has
// log10_middle_to_ends = base + k, a profile 1..10 scaled by `scale`, and at steps that are
// multiples of 100 a gradient that falls from 2 at position 1 to 1 elsewhere.
nlohmann::json birth_result(const std::vector<std::int64_t>& steps, double base, double scale) {
  nlohmann::json j{{"position_base", 0}, {"run", "r"},
                   {"target", "hidden"}, {"method", "exact"},
                   {"length", 10},       {"query", 9},
                   {"sequences", 2},     {"checkpoints", nlohmann::json::array()}};
  for (std::size_t k = 0; k < steps.size(); ++k) {
    std::vector<double> profile;
    for (int i = 1; i <= 10; ++i) profile.push_back(scale * i);
    nlohmann::json c{{"step", steps[k]},
                     {"profile", profile},
                     {"log10_middle_to_ends", base + static_cast<double>(k)},
                     {"log10_dead_zone_depth", -base},
                     {"argmin", 2},
                     {"attention_entropy_ratio", nullptr},
                     {"nofit", {{"median_abs_log10_error", 0.5}}}};
    if (steps[k] % 100 == 0) {
      std::vector<double> g(10, 1.0);
      g[0] = 2.0 * scale;
      c["gradient"] = {{"measured", g},
                       {"median_abs_log10_error",
                        {{"column_sum", 0.3}, {"root_sum_square", 0.2}, {"flat", 0.1}}}};
    }
    j["checkpoints"].push_back(c);
  }
  return j;
}

struct SeedsTest : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("posbias_seeds_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

TEST_F(SeedsTest, MeansIntervalsCommonStepsAndChange) {
  // Seed b lacks step 5; seed c has an extra step 7. The common steps are 0, 100, 200.
  SeedsOptions o;
  o.birth = {write("a.json", birth_result({0, 5, 100, 200}, 0.0, 1.0).dump()),
             write("b.json", birth_result({0, 100, 200}, 1.0, 2.0).dump()),
             write("c.json", birth_result({0, 7, 100, 200}, 2.0, 1.0).dump())};
  const SeedsResult r = summarize_seeds(o);
  ASSERT_EQ(r.checkpoints.size(), 3u);
  EXPECT_EQ(r.checkpoints[1].step, 100);
  // Step 0: values 0, 1, 2 → mean 1, s = 1, half width t₂/√3.
  const SeedInterval& m0 = r.checkpoints[0].middle_to_ends.interval;
  EXPECT_DOUBLE_EQ(m0.mean, 1.0);
  EXPECT_NEAR(m0.high - m0.mean, 4.30265272974946 / std::sqrt(3.0), 1e-9);
  // Step 200 is index 3 for a and c (base + 3) and index 2 for b (1 + 2): values 3, 3, 5.
  EXPECT_DOUBLE_EQ(r.checkpoints[2].middle_to_ends.values[1], 3.0);
  EXPECT_NEAR(r.checkpoints[2].middle_to_ends.interval.mean, 11.0 / 3.0, 1e-12);
  // The paired change: 3, 2, 3.
  EXPECT_EQ(r.change_middle_to_ends.values, (std::vector<double>{3, 2, 3}));
  // The unit-sum share does not depend on the profile's scale: every seed equal, zero width.
  const SeedInterval& last = r.checkpoints[0].log10_share.back();
  EXPECT_NEAR(last.mean, std::log10(10.0 / 55.0), 1e-12);
  EXPECT_NEAR(last.high, last.mean, 1e-12);
  // Entropy is null in every file: no value.
  EXPECT_EQ(r.checkpoints[0].entropy_ratio.interval.n, 0);
  // The gradient: middle fifth (positions 5, 6) over position 1 = 1/(2·scale).
  ASSERT_TRUE(r.checkpoints[0].has_gradient);
  EXPECT_NEAR(r.checkpoints[0].gradient_middle_to_first.values[1], std::log10(0.25), 1e-12);
  ASSERT_TRUE(r.gradient_steps);
  EXPECT_EQ(r.gradient_steps->second, 200);
  EXPECT_NEAR(r.change_gradient_middle_to_first.interval.mean, 0, 1e-12);
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["checkpoints"][0]["argmin"], (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(j["position_base"], 0);
  EXPECT_EQ(j["query"], 9);
  EXPECT_TRUE(j["checkpoints"][0]["attention_entropy_ratio"]["mean"].is_null());
  EXPECT_EQ(seeds_csv(r).substr(0, 11), "step,seeds,");
}

TEST_F(SeedsTest, HeldoutFromEvals) {
  SeedsOptions o;
  o.birth = {write("a.json", birth_result({0}, 0.0, 1.0).dump()),
             write("b.json", birth_result({0}, 0.0, 1.0).dump())};
  auto eval = [](double bpb) {
    std::vector<double> loss(10, 4.0);
    loss[0] = 5.0;
    return nlohmann::json{{"bits_per_byte", bpb},
                          {"unigram_bits_per_byte", 2.8},
                          {"bigram_bits_per_byte", 2.0},
                          {"loss_per_position", loss}}
        .dump();
  };
  o.eval = {write("ea.json", eval(1.9)), write("eb.json", eval(2.1))};
  const SeedsResult r = summarize_seeds(o);
  ASSERT_TRUE(r.heldout);
  EXPECT_NEAR(r.heldout->bits_per_byte.interval.mean, 2.0, 1e-12);
  EXPECT_NEAR(r.heldout->bits_per_byte.interval.high, 2.0 + 12.7062047361747 * 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(r.heldout->loss_first.interval.mean, 5.0);
  EXPECT_DOUBLE_EQ(r.heldout->loss_middle.interval.mean, 4.0);
  // An eval of another length is refused.
  o.eval[1] = write("short.json", nlohmann::json{{"bits_per_byte", 1.0},
                                                 {"unigram_bits_per_byte", 1.0},
                                                 {"bigram_bits_per_byte", 1.0},
                                                 {"loss_per_position", {1.0, 2.0}}}
                                      .dump());
  EXPECT_THROW(summarize_seeds(o), std::runtime_error);
  // A diverged evaluation's null loss is no number to average over seeds: refused by name.
  nlohmann::json diverged = nlohmann::json::parse(eval(2.1));
  diverged["loss_per_position"][3] = nullptr;
  o.eval[1] = write("diverged.json", diverged.dump());
  try {
    summarize_seeds(o);
    ADD_FAILURE() << "a null loss_per_position entry was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("loss_per_position entries must be finite"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(SeedsTest, RefusesFilesThatDoNotMatch) {
  const std::string a = write("a.json", birth_result({0, 100}, 0.0, 1.0).dump());
  nlohmann::json longer = birth_result({0, 100}, 0.0, 1.0);
  longer["target"] = "loss";
  const std::string b = write("b.json", longer.dump());
  EXPECT_THROW(summarize_seeds({{a, b}, {}, "", "", ""}), std::runtime_error);
  const std::string disjoint = write("c.json", birth_result({5}, 0.0, 1.0).dump());
  EXPECT_THROW(summarize_seeds({{a, disjoint}, {}, "", "", ""}), std::runtime_error);
  EXPECT_THROW(summarize_seeds({{a}, {}, "", "", ""}), std::invalid_argument);
  EXPECT_THROW(summarize_seeds({{a, a}, {}, "", "", ""}), std::invalid_argument);
  EXPECT_THROW(summarize_seeds({{a, disjoint}, {a}, "", "", ""}), std::invalid_argument);
  nlohmann::json bad = birth_result({0, 100}, 0.0, 1.0);
  bad["checkpoints"][1]["step"] = 0;  // steps must increase
  EXPECT_THROW(parse_training_seed(bad.dump(), "x"), std::runtime_error);
  bad = birth_result({0}, 0.0, 1.0);
  bad["checkpoints"][0]["profile"][3] = -1.0;
  EXPECT_THROW(parse_training_seed(bad.dump(), "x"), std::runtime_error);
  EXPECT_THROW(parse_training_seed("{\"length\": 1e400}", "x"), std::runtime_error);
}

// birth --run measures a run at any --length; the gradient per position in its file was
// logged by training, at the run's training length (10 here), as the eval's loss is. Files
// measured at length 6 pool, as long as every file agrees on both lengths.
TEST_F(SeedsTest, BirthResultsAtAnotherLengthThanTraining) {
  auto at_length_6 = [](double base, double scale, std::size_t gradient_positions = 10) {
    nlohmann::json j = birth_result({0, 100}, base, scale);
    j["length"] = 6;
    j["query"] = 5;
    for (auto& c : j["checkpoints"]) {
      std::vector<double> profile(6);
      for (int i = 0; i < 6; ++i) profile[static_cast<std::size_t>(i)] = scale * (i + 1);
      c["profile"] = profile;
      if (c.contains("gradient")) {
        std::vector<double> g(gradient_positions, 1.0);
        g[0] = 2.0 * scale;
        c["gradient"]["measured"] = g;
      }
    }
    return j.dump();
  };
  auto eval = [](std::size_t positions) {
    std::vector<double> loss(positions, 4.0);
    loss[0] = 5.0;
    return nlohmann::json{{"bits_per_byte", 2.0},
                          {"unigram_bits_per_byte", 2.8},
                          {"bigram_bits_per_byte", 2.0},
                          {"loss_per_position", loss}}
        .dump();
  };
  SeedsOptions o;
  o.birth = {write("a.json", at_length_6(0.0, 1.0)), write("b.json", at_length_6(1.0, 2.0))};
  o.eval = {write("ea.json", eval(10)), write("eb.json", eval(10))};
  const SeedsResult r = summarize_seeds(o);
  ASSERT_EQ(r.checkpoints.size(), 2u);
  EXPECT_EQ(r.seeds.front().length, 6);
  EXPECT_EQ(r.checkpoints[0].log10_share.size(), 6u);
  // The gradient over the 10 training positions: middle fifth (positions 5, 6) over position 1.
  ASSERT_TRUE(r.checkpoints[0].has_gradient);
  EXPECT_NEAR(r.checkpoints[0].gradient_middle_to_first.values[0], std::log10(0.5), 1e-12);
  EXPECT_NEAR(r.checkpoints[0].gradient_middle_to_first.values[1], std::log10(0.25), 1e-12);
  ASSERT_TRUE(r.heldout);
  EXPECT_EQ(r.heldout->loss_per_position.size(), 10u);
  EXPECT_DOUBLE_EQ(r.heldout->loss_first.interval.mean, 5.0);
  // Files that do not agree: measured at another length, trained at another length, an eval of
  // another training length.
  const std::string at_10 = write("c.json", birth_result({0, 100}, 0.0, 1.0).dump());
  EXPECT_THROW(summarize_seeds({{o.birth[0], at_10}, {}, "", "", ""}), std::runtime_error);
  const std::string trained_12 = write("d.json", at_length_6(0.0, 1.0, 12));
  try {
    summarize_seeds({{o.birth[0], trained_12}, {}, "", "", ""});
    ADD_FAILURE() << "gradients of 10 and 12 positions pooled";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("over 12 positions but"), std::string::npos) << e.what();
  }
  o.eval[1] = write("e8.json", eval(8));
  try {
    summarize_seeds(o);
    ADD_FAILURE() << "an eval of 8 positions pooled with gradients of 10";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the training length"), std::string::npos) << e.what();
  }
}

// A text run of `seed` and `d_model` (train.json written from the record) and a birth --run
// result that names it.
std::string birth_of_run(SeedsTest& t, const std::string& name, int seed, int d_model) {
  TrainConfig config = TrainConfig::defaults(Task::kText);
  config.seed = static_cast<std::uint64_t>(seed);
  config.d_model = d_model;
  nlohmann::json j = birth_result({0, 100}, seed, 1.0);
  j["run"] = posbias_test::write_run_folder(t.dir / name, config);
  return t.write(name + ".json", j.dump());
}

// The runs birth --run measured must differ in nothing but the seed: their train.json, which
// the files name, are compared; runs of d 64 and d 32 are refused in one line naming both.
TEST_F(SeedsTest, RefusesBirthResultsOfDifferentConfigurations) {
  const std::string a = birth_of_run(*this, "a", 0, 64), b = birth_of_run(*this, "b", 1, 32),
                    c = birth_of_run(*this, "c", 1, 64);
  try {
    summarize_seeds({{a, b}, {}, "", "", ""});
    ADD_FAILURE() << "runs of d_model 64 and 32 pooled";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + b + "' and '" + a + "' are not seeds of one configuration"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("d_model is 32 and 64"), std::string::npos) << what;
  }
  posbias_test::expect_error("seeds " + a + " " + b, "d_model is 32 and 64", 1);
  // Negative control: runs that differ only in the seed.
  const SeedsResult r = summarize_seeds({{a, c}, {}, "", "", ""});
  EXPECT_EQ(r.seeds.size(), 2u);
  EXPECT_FALSE(to_json(r).contains("unchecked_configurations"));
}

// A run's train.json is read strictly: a mistyped field is refused in one line naming the
// file and the field, not taken for a run whose configuration is unknown.
TEST_F(SeedsTest, RefusesAMistypedTrainJson) {
  const std::string a = birth_of_run(*this, "a", 0, 64), b = birth_of_run(*this, "b", 1, 64);
  const fs::path header = dir / "b" / "train.json";
  nlohmann::json j = nlohmann::json::parse(posbias_test::slurp(header));
  j["config"]["d_model"] = "64";
  std::ofstream(header) << j.dump(2);
  const std::string needle =
      "'" + header.string() +
      "': train.json field 'config': config field 'd_model' must be a number (an integer)";
  try {
    summarize_seeds({{a, b}, {}, "", "", ""});
    ADD_FAILURE() << "a train.json with d_model \"64\" read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  posbias_test::expect_error("seeds " + a + " " + b, needle, 1);
}

TEST_F(SeedsTest, SharesAndUTestPerStepWithThePairedChange) {
  // L = 64: primacy 0..7, middle 25..36, recency 54..61, query 63. Seed k's profile is 1 at
  // every position but the query, which holds q_k at step 0 and 2·q_k at step 100.
  auto result = [](double query) {
    nlohmann::json j = birth_result({0, 100}, 0.0, 1.0);
    j["length"] = 64;
    j["query"] = 63;
    for (int k = 0; k < 2; ++k) {
      std::vector<double> p(64, 1.0);
      p.back() = query * (k + 1);
      j["checkpoints"][k]["profile"] = p;
    }
    return j;
  };
  const std::vector<double> q = {1.0, 2.0, 5.0};
  SeedsOptions o;
  for (std::size_t k = 0; k < q.size(); ++k)
    o.birth.push_back(write(fmt::format("s{}.json", k), result(q[k]).dump()));
  const SeedsResult r = summarize_seeds(o);
  const SharesOverSeeds& s0 = r.checkpoints[0].shares;
  EXPECT_EQ(s0.region(ShareRegion::kMiddle).first, 25);
  EXPECT_EQ(s0.region(ShareRegion::kMiddle).last, 36);
  for (std::size_t k = 0; k < q.size(); ++k) {
    EXPECT_NEAR(s0.share[0].values[k], 8 / (63 + q[k]), 1e-15);
    EXPECT_NEAR(s0.share[1].values[k], 12 / (63 + q[k]), 1e-15);
    EXPECT_NEAR(s0.share[3].values[k], q[k] / (63 + q[k]), 1e-15);
  }
  // Flat before the query: the middle's per-position share equals both ends', so no U.
  EXPECT_EQ(s0.u.verdict, "no U");
  EXPECT_NEAR(s0.u.middle_vs_primacy.interval.mean, 0, 1e-12);
  const nlohmann::json j = to_json(r);
  ASSERT_TRUE(j["checkpoints"][1]["shares"]["middle"]["values"].is_array());
  EXPECT_EQ(j["checkpoints"][1]["u_test"]["verdict"], "no U");
  // The paired change of the query's log10 share, per seed: log10((2q/(63+2q)) / (q/(63+q))).
  const auto& change = j["change"]["shares"]["query"]["values"];
  for (std::size_t k = 0; k < q.size(); ++k)
    EXPECT_NEAR(change[k].get<double>(),
                std::log10(2 * q[k] / (63 + 2 * q[k]) / (q[k] / (63 + q[k]))), 1e-12);
  const std::string csv = seeds_csv(r);
  EXPECT_NE(csv.find("query_share,low,high,u_test"), std::string::npos);
  EXPECT_NE(csv.find(",no U\n"), std::string::npos);
  // Through the command line: the JSON carries the fields, and the shares figure is drawn.
  const posbias_test::CliResult ok = posbias_test::run_cli(
      "seeds " + o.birth[0] + " " + o.birth[1] + " " + o.birth[2] + " --json " +
      (dir / "s.json").string() + " --plot " + (dir / "s").string());
  ASSERT_EQ(ok.code, 0) << ok.err;
  const nlohmann::json cli = nlohmann::json::parse(std::ifstream(dir / "s.json"));
  EXPECT_EQ(cli["checkpoints"][0]["shares"]["primacy"]["n"], 3);
  EXPECT_TRUE(cli["checkpoints"][0]["u_test"]["middle_vs_recency"]["low"].is_number());
  EXPECT_TRUE(fs::exists(dir / "s_shares.png"));
}

TEST_F(SeedsTest, CliErrorsAreOneLine) {
  using posbias_test::expect_error;
  const std::string a = write("a.json", birth_result({0, 100}, 0.0, 1.0).dump());
  const std::string b = write("b.json", birth_result({0, 100}, 1.0, 1.0).dump());
  expect_error("seeds " + a, "2..1024 birth --run results", 2);
  expect_error("seeds " + a + " " + b + " --eval " + a, "one file per birth result", 2);
  expect_error("seeds " + a + " " + write("n.json", "{\"profile\": [1, 2]}"),
               "unknown birth field 'profile'", 1);
  expect_error("seeds " + a + " " + (dir / "missing.json").string(), "missing.json", 1);
  const posbias_test::CliResult ok =
      posbias_test::run_cli("seeds " + a + " " + b + " --json " + (dir / "s.json").string() +
                            " --plot " + (dir / "s").string());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(dir / "s_shape.svg") && fs::exists(dir / "s_gradient.png"));
  // L = 10 is too short for any region but the query: the summary still runs and says so.
  const nlohmann::json short_profile = nlohmann::json::parse(std::ifstream(dir / "s.json"));
  EXPECT_EQ(short_profile["checkpoints"][0]["u_test"]["verdict"], "not testable");
  EXPECT_TRUE(short_profile["checkpoints"][0]["shares"]["unavailable"]["primacy"].is_string());
  EXPECT_TRUE(short_profile["checkpoints"][0]["shares"]["query"]["mean"].is_number());
}

}  // namespace
}  // namespace posbias
