// The Student-t quantiles against published values (R's qt(0.975, df), 15 digits), and the
// interval against a hand computation.
#include "posbias/stats/seed_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace posbias {
namespace {

TEST(SeedInterval, QuantilesMatchPublishedValues) {
  EXPECT_NEAR(t_quantile_975(1), 12.7062047361747, 1e-9);
  EXPECT_NEAR(t_quantile_975(2), 4.30265272974946, 1e-10);
  EXPECT_NEAR(t_quantile_975(3), 3.18244630528371, 1e-10);
  EXPECT_NEAR(t_quantile_975(4), 2.77644510519779, 1e-10);
  EXPECT_NEAR(t_quantile_975(10), 2.22813885198627, 1e-10);
  EXPECT_NEAR(t_quantile_975(29), 2.04522964213270, 1e-10);
  EXPECT_NEAR(t_quantile_975(1000), 1.96233908082641, 1e-9);
  EXPECT_NEAR(t_quantile_975(1000000), 1.95996398454005, 1e-5);
  EXPECT_THROW(t_quantile_975(0), std::invalid_argument);
}

TEST(SeedInterval, MeanAndHalfWidth) {
  // Values 1, 2, 6: mean 3, s² = (4 + 1 + 9)/2 = 7, half width t₂·√(7/3).
  const SeedInterval r = seed_interval({1, 2, 6});
  EXPECT_EQ(r.n, 3);
  EXPECT_DOUBLE_EQ(r.mean, 3);
  const double half = 4.30265272974946 * std::sqrt(7.0 / 3.0);
  EXPECT_NEAR(r.low, 3 - half, 1e-9);
  EXPECT_NEAR(r.high, 3 + half, 1e-9);
}

TEST(SeedInterval, SkipsNonFiniteAndNeedsTwoValues) {
  const SeedInterval r = seed_interval({5, NAN, INFINITY});
  EXPECT_EQ(r.n, 1);
  EXPECT_DOUBLE_EQ(r.mean, 5);
  EXPECT_TRUE(std::isnan(r.low) && std::isnan(r.high));
  EXPECT_TRUE(std::isnan(seed_interval({}).mean));
  const SeedInterval same = seed_interval({2, 2, 2, 2});
  EXPECT_DOUBLE_EQ(same.low, 2);
  EXPECT_DOUBLE_EQ(same.high, 2);
}

}  // namespace
}  // namespace posbias
