// The held-out model comparison must pick the model that generated the data: seeds drawn
// around a power law must favour the power law over the theory, and seeds drawn around a
// theory row (with its U) must favour the theory over the two monotone laws.
#include "posbias/theory/model_comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "posbias/theory/influence.h"

namespace posbias {
namespace {

std::vector<std::vector<double>> noisy_seeds(const std::vector<double>& truth, int seeds,
                                             double sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<std::vector<double>> out;
  for (int s = 0; s < seeds; ++s) {
    std::vector<double> row(truth.size());
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = 3.0 * truth[j] * std::exp(noise(rng));
    out.push_back(row);
  }
  return out;
}

std::map<std::string, double> errors(const std::vector<ModelScore>& scores) {
  std::map<std::string, double> out;
  for (const auto& s : scores) out[s.model] = s.heldout.median_abs_log10_error;
  return out;
}

TEST(ModelComparison, TheTheoryWinsOnTheoryDataAndLosesOnPowerLawData) {
  constexpr std::int64_t kL = 96, kH = 8;
  InfluenceSpec is;
  is.length = kL;
  is.layers = kH;
  is.alpha = {0.3};
  const std::vector<double> truth = influence_row_double(is);
  ComparisonInput in;
  in.seeds = noisy_seeds(truth, 8, 0.05, 1);
  in.theory.layers = kH;
  in.nofit = truth;
  auto e = errors(compare_models(in));
  ASSERT_EQ(e.size(), 4U);  // theory_fit, theory_nofit, power_law, exponential
  EXPECT_LT(e["theory_fit"], 0.5 * e["power_law"]);
  EXPECT_LT(e["theory_nofit"], 0.5 * e["power_law"]);
  EXPECT_LT(e["theory_fit"], 0.5 * e["exponential"]);

  std::vector<double> law(kL);
  for (std::int64_t j = 0; j < kL; ++j) law[j] = std::pow(static_cast<double>(j + 1), -1.3);
  in.seeds = noisy_seeds(law, 8, 0.05, 2);
  in.nofit = truth;  // now the wrong prediction
  e = errors(compare_models(in));
  EXPECT_LT(e["power_law"], e["theory_fit"]);
  EXPECT_LT(e["power_law"], 0.5 * e["theory_nofit"]);
}

TEST(ModelComparison, CountsParametersAndNeedsTwoSeeds) {
  ComparisonInput in;
  in.seeds = {{3, 2, 1, 2}, {3.1, 2.1, 1.1, 1.9}};
  in.theory.layers = 2;
  in.rollout = {3, 2, 1, 2};
  for (const auto& s : compare_models(in))
    EXPECT_EQ(s.free_params, s.model == "rollout" ? 0 : 2) << s.model;
  in.seeds.pop_back();
  EXPECT_THROW(compare_models(in), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
