// Fitting: recovery of a known α from noisy synthetic profiles, and the metrics against
// values computed by hand.
#include "posbias/theory/fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "posbias/theory/influence.h"

namespace posbias {
namespace {

std::vector<double> theory(std::int64_t length, std::int64_t layers, double alpha) {
  InfluenceSpec s;
  s.length = length;
  s.layers = layers;
  s.alpha = {alpha};
  std::vector<double> out;
  for (const auto& v : influence_row(s)) out.push_back(v.to_double());
  return out;
}

TEST(Fit, RecoversAlphaFromNoisySeeds) {
  constexpr std::int64_t kL = 128, kH = 12;
  constexpr double kAlpha = 0.3;
  const std::vector<double> t = theory(kL, kH, kAlpha);
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 0.1);  // ~10% multiplicative noise per seed
  MeasuredProfile p;
  p.mean.assign(kL, 0.0);
  for (int seed = 0; seed < 8; ++seed) {
    std::vector<double> prof(kL);
    for (std::int64_t j = 0; j < kL; ++j) prof[j] = 5.0 * t[j] * std::exp(noise(rng));
    for (std::int64_t j = 0; j < kL; ++j) p.mean[j] += prof[j] / 8;
    p.seeds.push_back(prof);
  }
  FitSpec spec;
  spec.layers = kH;
  spec.bootstrap = 100;
  const FitResult r = fit_profile(p, spec);
  EXPECT_NEAR(r.alpha, kAlpha, 0.02);
  EXPECT_LE(r.alpha_ci_low, kAlpha);
  EXPECT_GE(r.alpha_ci_high, kAlpha);
  EXPECT_LT(r.alpha_ci_high - r.alpha_ci_low, 0.1);
  EXPECT_NEAR(r.log10_gain, std::log10(5.0), 0.05);
  EXPECT_GT(r.spearman, 0.99);
  EXPECT_GT(r.log_r2, 0.98);
  EXPECT_LT(r.w1, 0.01);
  EXPECT_EQ(r.seeds, 8);
  EXPECT_EQ(r.theory_log10.size(), static_cast<std::size_t>(kL));
}

TEST(Fit, ExactProfileFitsExactly) {
  const std::vector<double> t = theory(64, 6, 0.55);
  MeasuredProfile p;
  p.mean = t;
  FitSpec spec;
  spec.layers = 6;
  const FitResult r = fit_profile(p, spec);
  EXPECT_NEAR(r.alpha, 0.55, 1e-6);
  EXPECT_NEAR(r.log_r2, 1.0, 1e-10);
  EXPECT_NEAR(r.spearman, 1.0, 1e-12);
  EXPECT_NEAR(r.w1, 0.0, 1e-9);
  EXPECT_TRUE(std::isnan(r.alpha_ci_low));  // one seed: no bootstrap
}

TEST(Fit, MetricsByHand) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  // Ties get average ranks: ranks a = (1, 2.5, 2.5, 4), b = (1, 2, 3, 4); r = 0.9486832980505138
  EXPECT_NEAR(spearman({1, 2, 2, 3}, {1, 2, 3, 4}), 0.9486832980505138, 1e-15);
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 3}, {1, 2, 3}), 1.0);
  EXPECT_DOUBLE_EQ(r_squared({1, 2, 3}, {2, 2, 2}), 0.0);
  EXPECT_DOUBLE_EQ(wasserstein1({1, 0, 0, 0}, {1, 0, 0, 0}), 0.0);
  // All mass at position 1 against all at position 4: distance 3 positions = 3/4 of L.
  EXPECT_DOUBLE_EQ(wasserstein1({1, 0, 0, 0}, {0, 0, 0, 1}), 0.75);
  EXPECT_DOUBLE_EQ(wasserstein1({2, 0, 0, 0}, {0, 1, 0, 0}), 0.25);  // scale-free
}

TEST(Fit, RejectsBadProfiles) {
  FitSpec spec;
  spec.layers = 4;
  MeasuredProfile p;
  p.mean = {1, 2, 3};
  EXPECT_THROW(fit_profile(p, spec), std::invalid_argument);  // too short
  p.mean = {1, 2, 0, 4, 5};
  EXPECT_THROW(fit_profile(p, spec), std::invalid_argument);  // zero: no log
  p.mean = {1, 2, NAN, 4, 5};
  EXPECT_THROW(fit_profile(p, spec), std::invalid_argument);
  p.mean = {1, 2, 3, 4, 5};
  p.seeds = {{1, 2, 3}};
  EXPECT_THROW(fit_profile(p, spec), std::invalid_argument);  // seed length mismatch
  p.seeds.clear();
  spec.layers = 0;
  EXPECT_THROW(fit_profile(p, spec), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
