// Rollout: against influence.h when every layer has the Cesàro matrix, and against a
// brute-force sum over layer subsets (quadrature and linear) when each layer has its own
// random attention and random per-position key and stay factors.
#include "posbias/theory/rollout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace posbias {
namespace {

std::vector<double> cesaro(std::int64_t n) {
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) a[i * n + j] = 1.0 / static_cast<double>(i + 1);
  return a;
}

std::vector<double> random_causal(std::int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j <= i; ++j) sum += a[i * n + j] = u(rng);
    for (std::int64_t j = 0; j <= i; ++j) a[i * n + j] /= sum;
  }
  return a;
}

TEST(Rollout, CesaroLayersReproduceTheInfluenceRow) {
  constexpr std::int64_t kL = 40;
  const std::vector<double> alpha = {0.1, 0.3, 0.05, 0.6, 0.2};
  for (PathSum paths : {PathSum::kLinear, PathSum::kQuadrature}) {
    RolloutSpec rs;
    rs.length = kL;
    rs.alpha = alpha;
    rs.attention.assign(alpha.size(), cesaro(kL));
    rs.paths = paths;
    InfluenceSpec is;
    is.length = kL;
    is.layers = static_cast<std::int64_t>(alpha.size());
    is.alpha = alpha;
    is.paths = paths;
    const auto got = rollout_row(rs);
    const auto want = influence_row_double(is);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t j = 0; j < got.size(); ++j)
      EXPECT_NEAR(got[j] / want[j], 1.0, 1e-12) << to_string(paths) << " j=" << j + 1;
  }
}

TEST(Rollout, DistinctLayersMatchBruteForce) {
  constexpr std::int64_t kL = 9, kH = 4;
  std::mt19937_64 rng(11);
  RolloutSpec rs;
  rs.length = kL;
  rs.query = 7;
  rs.alpha = {0.2, 0.7, 0.4, 0.55};
  std::uniform_real_distribution<double> gain(0.5, 2.0);
  for (int l = 0; l < kH; ++l) {
    rs.attention.push_back(random_causal(kL, rng));
    rs.key_scale.emplace_back(), rs.stay_scale.emplace_back();
    for (int j = 0; j < kL; ++j) {
      rs.key_scale.back().push_back(gain(rng));
      rs.stay_scale.back().push_back(gain(rng));
    }
  }
  const std::size_t q = 7, n = kL;
  // Every layer subset S: the row e_qᵀ Π_{l = H-1..0} (A_l if l ∈ S else I), weight w_S.
  std::vector<double> linear(q, 0.0), quad2(q, 0.0);
  for (int mask = 0; mask < (1 << kH); ++mask) {
    std::vector<double> v(q, 0.0);
    v[q - 1] = 1.0;
    double w = 1.0;
    for (int l = kH - 1; l >= 0; --l) {
      for (std::size_t i = 0; i < q; ++i) v[i] *= rs.stay_scale[l][i];  // the MLP at i
      if (mask & (1 << l)) {
        std::vector<double> next(q, 0.0);
        for (std::size_t i = 0; i < q; ++i)
          for (std::size_t j = 0; j <= i; ++j)
            next[j] += v[i] * rs.attention[l][i * n + j] * rs.key_scale[l][j];
        v = next;
        w *= rs.alpha[l];
      } else {
        w *= 1 - rs.alpha[l];
      }
    }
    for (std::size_t j = 0; j < q; ++j) linear[j] += w * v[j], quad2[j] += w * w * v[j] * v[j];
  }
  rs.paths = PathSum::kLinear;
  const auto lin = rollout_row(rs);
  rs.paths = PathSum::kQuadrature;
  const auto quad = rollout_row(rs);
  ASSERT_EQ(lin.size(), q);
  for (std::size_t j = 0; j < q; ++j) {
    EXPECT_NEAR(lin[j], linear[j], 1e-14) << j;
    EXPECT_NEAR(quad[j], std::sqrt(quad2[j]), 1e-14) << j;
  }
  // The two sums differ (the quadrature row is not a rescaled linear row).
  EXPECT_GT(std::abs(quad[0] / quad[q - 1] - lin[0] / lin[q - 1]), 1e-3);
}

TEST(Rollout, RejectsBadSpecs) {
  RolloutSpec rs;
  rs.length = 3;
  rs.alpha = {0.5};
  rs.attention = {cesaro(3)};
  EXPECT_NO_THROW(rollout_row(rs));
  auto expect_bad = [](RolloutSpec s, const char* what) {
    try {
      rollout_row(s);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  RolloutSpec s = rs;
  s.alpha = {1.5};
  expect_bad(s, "α of layer 0");
  s = rs;
  s.attention[0][1] = 0.1;  // above the diagonal
  expect_bad(s, "non-causal");
  s = rs;
  s.attention[0][4] = 0.9;  // row 2 sums to 1.4
  expect_bad(s, "sums to");
  s = rs;
  s.alpha = {0.5, 0.5};
  expect_bad(s, "one α per layer");
  s = rs;
  s.attention[0].pop_back();
  expect_bad(s, "not L×L");
  s = rs;
  s.query = 4;
  expect_bad(s, "query");
  s = rs;
  s.key_scale = {{1, 1, 0}};
  expect_bad(s, "key_scale must be finite and > 0");
  s = rs;
  s.stay_scale = {{1, 1}};
  expect_bad(s, "stay_scale row is not L long");
}

}  // namespace
}  // namespace posbias
