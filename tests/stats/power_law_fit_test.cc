#include "posbias/stats/power_law_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace posbias {
namespace {

TEST(PowerLawFit, AnExactPowerLawHasItsExponentAndAZeroWidthInterval) {
  std::vector<double> x, y;
  for (double n : {8.0, 16.0, 32.0, 64.0, 128.0}) x.push_back(n), y.push_back(3.0 / (n * n));
  const PowerLawFit f = fit_power_law(x, y);
  EXPECT_NEAR(f.exponent, -2.0, 1e-12);
  EXPECT_NEAR(f.log_prefactor, std::log(3.0), 1e-12);
  EXPECT_NEAR(f.low, -2.0, 1e-9);
  EXPECT_NEAR(f.high, -2.0, 1e-9);
  EXPECT_EQ(f.points, 5);
}

TEST(PowerLawFit, TheIntervalCoversTheTrueExponentAboutNinetyFivePercentOfTheTime) {
  // Log-normal noise on y = x^-1.5 at 6 lengths: the t interval must cover -1.5 in ~95% of 2000
  // draws (a wrong df or a missing √ would land far from 0.95).
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.3);
  int covered = 0;
  const int draws = 2000;
  for (int d = 0; d < draws; ++d) {
    std::vector<double> x, y;
    for (double n : {10.0, 20.0, 40.0, 80.0, 160.0, 320.0}) {
      x.push_back(n);
      y.push_back(std::pow(n, -1.5) * std::exp(noise(rng)));
    }
    const PowerLawFit f = fit_power_law(x, y);
    covered += (f.low <= -1.5 && -1.5 <= f.high) ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(covered) / draws, 0.95, 0.015);
}

TEST(PowerLawFit, PointsOutsideTheRangeOrNotPositiveAreSkipped) {
  const std::vector<double> x{1, 2, 4, 8, 16, 32};
  const std::vector<double> y{5, 0, 1.0 / 4, -1, 1.0 / 16, 1.0 / 32};
  const PowerLawFit f = fit_power_law(x, y, 4, 16);  // 4 and 16 remain
  EXPECT_EQ(f.points, 2);
  EXPECT_NEAR(f.exponent, -1.0, 1e-12);
  EXPECT_TRUE(std::isnan(f.low));  // two points: a slope but no interval
  EXPECT_TRUE(std::isnan(fit_power_law({3}, {1}).exponent));
  EXPECT_TRUE(std::isnan(fit_power_law({3, 3, 3}, {1, 2, 3}).exponent));
  EXPECT_THROW(fit_power_law({1, 2}, {1}), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
