// Key–value retrieval: the generator against the independent solver (kv_check.cc reads only
// tokens), the recorded depth against where the key really is, the depth priors' distributions
// (a chi-square test that passes for uniform and must fail for ends), determinism, the JSONL
// round trip, `tasks check` on a good and a corrupted file, and bad input (one line, exit 2).
#include "posbias/tasks/kv_task.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "../cli_run.h"
#include "posbias/tasks/kv_check.h"

namespace posbias {
namespace {

using posbias_test::expect_usage_error;
using posbias_test::run_cli;
using posbias_test::scratch_path;

TEST(KvTask, EveryGeneratedExampleSolvesToItsAnswerDepthAndPosition) {
  int checked = 0;
  for (int length : {16, 17, 21, 64, 255, 256, 1000, 4096}) {
    for (DepthPrior prior : {DepthPrior::kUniform, DepthPrior::kEnds}) {
      for (std::uint64_t seed : {0u, 1u, 7u, 123u}) {
        const KvSpec spec{length, length > 1000 ? 20 : 200, seed, prior};
        for (const KvExample& ex : make_kv_dataset(spec)) {
          ASSERT_EQ(ex.length(), length);
          ASSERT_EQ(ex.pairs, (length - 4) / 6);
          const auto problem = check_kv_example(ex);
          ASSERT_FALSE(problem) << *problem << "\n" << kv_example_to_json(ex).dump();
          for (const std::string& t : ex.tokens) ASSERT_NO_THROW(kv_token_id(t));
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 4 * (7 * 200 + 20));
}

// Independently of the solver: the tokens at the recorded depth are the queried key and the
// answer; the keys of an example are distinct.
TEST(KvTask, RecordedDepthIsWhereTheKeyIsAndKeysAreDistinct) {
  for (int length : {16, 100, 777}) {
    for (const KvExample& ex : make_kv_dataset({length, 300, 5, DepthPrior::kUniform})) {
      const int fillers = (length - 4) % 6;
      for (int p = 0; p < fillers; ++p) EXPECT_EQ(ex.tokens[p], "_");
      const int span = 6 * (ex.pairs - 1);  // tokens from the first pair's start to the last's
      const int at = fillers + static_cast<int>(std::lround(ex.depth / 100.0 * span));
      ASSERT_EQ(at, ex.position);
      ASSERT_EQ(at % 6, fillers % 6);
      for (int k = 0; k < 3; ++k) EXPECT_EQ(ex.tokens[at + k], ex.tokens[length - 3 + k]);
      EXPECT_EQ(ex.tokens[at + 3] + " " + ex.tokens[at + 4] + " " + ex.tokens[at + 5], ex.answer);
      std::set<std::string> keys;
      for (int i = 0; i < ex.pairs; ++i) {
        const int s = fillers + 6 * i;
        keys.insert(ex.tokens[s] + ex.tokens[s + 1] + ex.tokens[s + 2]);
      }
      EXPECT_EQ(static_cast<int>(keys.size()), ex.pairs);
    }
  }
}

// Pearson's chi-square of the queried pair's index over 10 equal depth bins against uniform.
double chi_square_uniform(DepthPrior prior, std::uint64_t seed, double* end_share) {
  constexpr int kPairs = 40, kBins = 10, kCount = 4000;
  const int length = kPairs * 6 + 4;
  std::vector<int> bins(kBins, 0);
  int ends = 0;
  for (const KvExample& ex : make_kv_dataset({length, kCount, seed, prior})) {
    const int index = (ex.position - (length - 4) % 6) / 6;
    ++bins[index * kBins / kPairs];
    ends += ex.depth <= 10.0 || ex.depth >= 90.0;
  }
  *end_share = static_cast<double>(ends) / kCount;
  double chi2 = 0;
  const double expected = static_cast<double>(kCount) / kBins;
  for (int b : bins) chi2 += (b - expected) * (b - expected) / expected;
  return chi2;
}

TEST(KvTask, UniformPriorIsUniformAndEndsIsNot) {
  // The 0.999 quantile of chi-square with 9 degrees of freedom is 27.88. Fixed seeds: uniform
  // passes it, ends (bin probabilities 0.205, 0.090, ... from the arcsine law) fails it by far.
  constexpr double kCritical = 27.88;
  double uniform_ends = 0, ends_ends = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const double chi_uniform = chi_square_uniform(DepthPrior::kUniform, seed, &uniform_ends);
    const double chi_ends = chi_square_uniform(DepthPrior::kEnds, seed, &ends_ends);
    EXPECT_LT(chi_uniform, kCritical) << "seed " << seed;
    EXPECT_GT(chi_ends, kCritical) << "seed " << seed;
    // Depths in 0..10 or 90..100 percent (100·i/39): pairs 0..3 and 36..39, 8 of 40 under
    // uniform (0.20); under ends, 2·P(u < 4/40) = 2·(2/π)·asin(√0.1) = 0.41.
    EXPECT_NEAR(uniform_ends, 0.20, 0.03) << "seed " << seed;
    EXPECT_NEAR(ends_ends, 0.41, 0.03) << "seed " << seed;
  }
}

TEST(KvTask, SameSeedSameExamplesAndAnExampleDoesNotDependOnTheCount) {
  const auto a = make_kv_dataset({64, 50, 42, DepthPrior::kUniform});
  const auto b = make_kv_dataset({64, 20, 42, DepthPrior::kUniform});
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_EQ(a[i].tokens, b[i].tokens);
  EXPECT_NE(make_kv_dataset({64, 1, 43, DepthPrior::kUniform})[0].tokens, a[0].tokens);
}

TEST(KvTask, SolverRejectsBrokenExamples) {
  const KvExample ex = make_kv_dataset({40, 1, 3, DepthPrior::kUniform})[0];
  KvExample wrong = ex;
  wrong.answer = ex.answer == "0 0 0" ? "0 0 1" : "0 0 0";
  EXPECT_TRUE(check_kv_example(wrong));
  KvExample deep = ex;
  deep.depth = ex.depth + (ex.depth < 50 ? 20 : -20);
  ASSERT_TRUE(check_kv_example(deep));
  EXPECT_NE(check_kv_example(deep)->find("depth"), std::string::npos);
  KvExample twice = ex;  // a second pair with the queried key
  const int other = ex.position == 0 ? 6 : 0;
  for (int k = 0; k < 3; ++k) twice.tokens[other + k] = ex.tokens[ex.position + k];
  ASSERT_TRUE(check_kv_example(twice));
  EXPECT_NE(check_kv_example(twice)->find("matches pairs"), std::string::npos);
  KvExample bad = ex;
  bad.tokens[ex.position + 3] = "x";
  EXPECT_TRUE(check_kv_example(bad));
}

TEST(KvTask, JsonRoundTripAndBadSpecs) {
  for (const KvExample& ex : make_kv_dataset({50, 5, 9, DepthPrior::kEnds})) {
    const KvExample back =
        kv_example_from_json(nlohmann::json::parse(kv_example_to_json(ex).dump()));
    EXPECT_EQ(back.tokens, ex.tokens);
    EXPECT_EQ(back.depth, ex.depth);
    EXPECT_EQ(back.prior, DepthPrior::kEnds);
    EXPECT_FALSE(check_kv_example(back));
  }
  // Read through the line's field table: each bad field named.
  const KvExample ex = make_kv_dataset({40, 1, 4, DepthPrior::kUniform})[0];
  auto refusal = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = kv_example_to_json(ex);
    edit(j);
    try {
      kv_example_from_json(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal([](nlohmann::json&) {}), "accepted");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["queried"] = 2; }), "unknown field 'queried'");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j.erase("depth"); }), "missing field 'depth'");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["task"] = "number"; }), "'task' must be \"kv\"");
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["pairs"] = -1; }),
            "field 'pairs' is -1, out of range: it must be in 0.." + std::to_string(kKvMaxLength));
  EXPECT_EQ(refusal([](nlohmann::json& j) { j["length"] = 41; }),
            "'length' differs from the number of tokens");
  EXPECT_THROW(kv_pairs(15), std::invalid_argument);
  EXPECT_EQ(kv_pairs(16), 2);
  EXPECT_EQ(kv_pairs(kKvMaxLength), kKvDistinctKeys);
  EXPECT_THROW(kv_pairs(kKvMaxLength + 1), std::invalid_argument);
  EXPECT_THROW(parse_depth_prior("middle"), std::invalid_argument);
  EXPECT_EQ(kv_vocabulary().size(), 39u);
  EXPECT_THROW(kv_token_id("a"), std::invalid_argument);
}

TEST(KvTask, CommandWritesCheckableFilesAndRefusesBadInput) {
  const auto good = scratch_path("kv_task_test", "kv.jsonl");
  auto r =
      run_cli("tasks --task kv -L 200 --count 300 --depth-prior ends --seed 4 -o " + good.string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("tasks check " + good.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("all 300 examples are correct"), std::string::npos) << r.out;
  // A file whose depth was moved: `tasks check` fails (exit 1) and names the line.
  std::ifstream in(good);
  std::string first;
  std::getline(in, first);
  nlohmann::json j = nlohmann::json::parse(first);
  j["depth"] = j["depth"].get<double>() < 50 ? 99.0 : 1.0;
  const auto moved = scratch_path("kv_task_test", "moved.jsonl");
  std::ofstream(moved) << j.dump() << "\n";
  r = run_cli("tasks check " + moved.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("line 1: depth is"), std::string::npos) << r.err;

  expect_usage_error("tasks --task kv -L 15", "fits fewer than 2 kv pairs");
  expect_usage_error("tasks --task kv -L 200 --depth-prior middle", "unknown depth prior");
  expect_usage_error("tasks --task kv -L 200 --hops 2", "--hops belongs to the hop tasks");
  expect_usage_error("tasks --task letter --depth-prior ends", "--depth-prior belongs to");
  expect_usage_error("tasks --task words", "use number, letter, kv or passkey");
}

}  // namespace
}  // namespace posbias
