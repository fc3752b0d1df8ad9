// The gradient-profile prediction against closed forms and an explicit small product.
#include "posbias/theory/gradient_profile.h"

#include <gtest/gtest.h>

#include <cmath>

namespace posbias {
namespace {

TEST(GradientProfile, NoAttentionIsFlat) {
  const GradientProfile g = gradient_profile(7, {}, {});
  for (double v : g.column_sum) EXPECT_DOUBLE_EQ(v, 1.0);
  for (double v : g.root_sum_square) EXPECT_DOUBLE_EQ(v, 1.0);
}

TEST(GradientProfile, OneFullCesaroLayerGivesHarmonicTails) {
  const std::int64_t n = 50;
  const GradientProfile g = gradient_profile(n, {1.0}, {});
  for (std::int64_t j = 1; j <= n; ++j) {
    double tail = 0, tail_sq = 0;
    for (std::int64_t i = j; i <= n; ++i) tail += 1.0 / i, tail_sq += 1.0 / (double(i) * i);
    EXPECT_NEAR(g.column_sum[j - 1], tail, 1e-13);
    EXPECT_NEAR(g.root_sum_square[j - 1], std::sqrt(tail_sq), 1e-13);
  }
}

TEST(GradientProfile, MatchesTheExplicitProductWithAWindow) {
  const int n = 6;
  const std::vector<double> alpha{0.3, 0.7};
  AttentionOperator op;
  op.window = 3;
  // ((1-α2)I + α2 A)((1-α1)I + α1 A) by hand.
  double a[n][n] = {}, m[n][n] = {}, t[n][n] = {};
  for (int i = 0; i < n; ++i) {
    const auto row = op.dense_row(i + 1);
    for (int j = 0; j <= i; ++j) a[i][j] = row[j];
    m[i][i] = 1;
  }
  for (double al : alpha) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int k = 0; k < n; ++k) s += a[i][k] * m[k][j];
        t[i][j] = (1 - al) * m[i][j] + al * s;
      }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) m[i][j] = t[i][j];
  }
  const GradientProfile g = gradient_profile(n, alpha, op);
  for (int j = 0; j < n; ++j) {
    double c = 0, s = 0;
    for (int i = 0; i < n; ++i) c += m[i][j], s += m[i][j] * m[i][j];
    EXPECT_NEAR(g.column_sum[j], c, 1e-14);
    EXPECT_NEAR(g.root_sum_square[j], std::sqrt(s), 1e-14);
  }
  // Position 1 is read by every output; the last only by itself.
  EXPECT_GT(g.column_sum.front(), g.column_sum.back());
  EXPECT_THROW(gradient_profile(0, {}, {}), std::invalid_argument);
  EXPECT_THROW(gradient_profile(4, {1.5}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
