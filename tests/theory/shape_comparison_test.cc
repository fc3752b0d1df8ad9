// Shape comparison: each statistic on profiles whose answer is known by hand.
#include "posbias/theory/shape_comparison.h"

#include <gtest/gtest.h>

#include <cmath>

namespace posbias {
namespace {

TEST(ShapeComparison, ScaleDoesNotMatterAndKnownErrorsAreFound) {
  const std::vector<double> p = {8, 4, 2, 1, 2, 6};
  std::vector<double> scaled = p;
  for (double& v : scaled) v *= 37.0;
  const ShapeMetrics same = shape_metrics(scaled, p);
  EXPECT_NEAR(same.median_abs_log10_error, 0.0, 1e-15);
  EXPECT_NEAR(same.max_abs_log10_error, 0.0, 1e-15);
  EXPECT_NEAR(same.w1, 0.0, 1e-15);
  EXPECT_EQ(same.argmin_measured, 3);  // positions count from 0
  EXPECT_EQ(same.argmin_predicted, 3);
  // mid = ⌈6/2⌉ = 3: recency 6/2, primacy 8/2.
  EXPECT_DOUBLE_EQ(same.recency_measured, 3.0);
  EXPECT_DOUBLE_EQ(same.primacy_predicted, 4.0);

  // A factor 10 at one position: after renormalizing, every other position is off by the
  // same factor 1/k, the changed one by 10/k.
  std::vector<double> m = p;
  m[3] *= 10;
  const double k = (23.0 + 9.0) / 23.0;  // new sum / old sum
  const ShapeMetrics s = shape_metrics(m, p);
  EXPECT_NEAR(s.max_abs_log10_error, std::log10(10 / k), 1e-12);
  EXPECT_NEAR(s.median_abs_log10_error, std::log10(k), 1e-12);
  EXPECT_EQ(s.argmin_measured, 2);  // 2 is now the smallest, at position 2
}

TEST(ShapeComparison, WassersteinSpansZeroToOne) {
  const std::vector<double> first = {1, 1e-12, 1e-12, 1e-12, 1e-12};
  const std::vector<double> last = {1e-12, 1e-12, 1e-12, 1e-12, 1};
  EXPECT_NEAR(shape_metrics(first, last).w1, 1.0, 1e-9);
  const std::vector<double> flat = {1, 1, 1, 1, 1};
  // All mass at 1 against uniform: the mean distance is (0+1+2+3+4)/5 = 2 positions, / (L-1).
  EXPECT_NEAR(shape_metrics(first, flat).w1, 0.5, 1e-9);
}

TEST(ShapeComparison, BootstrapIntervalsBracketTheMeanAndNeedTwoSeeds) {
  MeasuredProfile mp;
  mp.seeds = {{4, 2, 1, 3}, {5, 2.5, 1.2, 2.5}, {3.5, 1.8, 0.9, 3.2}, {4.4, 2.2, 1.1, 2.9}};
  mp.mean.assign(4, 0.0);
  for (const auto& s : mp.seeds)
    for (std::size_t j = 0; j < 4; ++j) mp.mean[j] += s[j] / 4;
  const std::vector<double> predicted = {4, 2, 1, 3};
  const ShapeComparison c = compare_shape(mp, predicted, 300, 7);
  EXPECT_LE(c.median_abs_log10_error.low, c.median_abs_log10_error.high);
  EXPECT_LE(c.recency_measured.low, c.at_mean.recency_measured + 1e-12);
  EXPECT_GE(c.recency_measured.high, c.at_mean.recency_measured - 1e-12);
  EXPECT_GT(c.recency_measured.high, c.recency_measured.low);
  MeasuredProfile one{mp.mean, {}};
  EXPECT_TRUE(std::isnan(compare_shape(one, predicted, 300, 7).w1.low));
}

TEST(ShapeComparison, RejectsBadProfiles) {
  EXPECT_THROW(shape_metrics({1, 2}, {1, 2, 3}), std::invalid_argument);
  EXPECT_THROW(shape_metrics({1, 0}, {1, 2}), std::invalid_argument);
  EXPECT_THROW(shape_metrics({1, NAN}, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
