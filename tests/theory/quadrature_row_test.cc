// The quadrature row, in both its forms (factor and dense 2D suffix sums), against three
// independent references: exact rationals from the closed form of Cesàro powers (one α, no
// gains), a brute-force sum over every layer subset (distinct random gains per layer and
// position), and rollout.h's O(q³) matrix recurrence. At long q the two forms check each other.
// Worst relative error per position is reported.
#include "posbias/theory/quadrature_row.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "posbias/theory/exact.h"
#include "posbias/theory/operator.h"
#include "posbias/theory/rollout.h"

namespace posbias {
namespace {

double worst_relative_error(const std::vector<double>& got, const std::vector<double>& want) {
  EXPECT_EQ(got.size(), want.size());
  double worst = 0;
  for (std::size_t j = 0; j < got.size() && j < want.size(); ++j)
    worst = std::max(worst, std::abs(got[j] / want[j] - 1.0));
  return worst;
}

std::vector<std::vector<double>> random_gains(std::size_t layers, std::size_t q,
                                              std::mt19937_64& rng) {
  std::uniform_real_distribution<double> gain(0.5, 2.0);
  std::vector<std::vector<double>> g(layers, std::vector<double>(q));
  for (auto& row : g)
    for (double& v : row) v = gain(rng);
  return g;
}

TEST(QuadratureRow, MatchesExactRationalsForOneAlpha) {
  constexpr std::int64_t kQ = 30, kH = 6;
  const mpq_class alpha(1, 4);
  // Σ_k C(H,k) (1-α)^{2(H-k)} α^{2k} ((Mᵏ)[q][j])², exact.
  std::vector<double> want(kQ);
  for (std::int64_t j = 1; j <= kQ; ++j) {
    mpq_class sum = 0, binom = 1;
    for (std::int64_t k = 0; k <= kH; ++k) {
      mpq_class w = binom;
      for (std::int64_t t = 0; t < kH - k; ++t) w *= (1 - alpha) * (1 - alpha);
      for (std::int64_t t = 0; t < k; ++t) w *= alpha * alpha;
      const mpq_class entry = cesaro_power_entry(kQ, j, k);
      sum += w * entry * entry;
      binom = binom * (kH - k) / (k + 1);
    }
    want[static_cast<std::size_t>(j - 1)] = std::sqrt(sum.get_d());
  }
  QuadratureRowSpec spec;
  spec.query = kQ;
  spec.alpha.assign(kH, 0.25);
  for (QuadratureRowMethod m : {QuadratureRowMethod::kFactor, QuadratureRowMethod::kDense}) {
    spec.method = m;
    const double worst = worst_relative_error(quadrature_row(spec), want);
    std::printf("exact rationals, q %ld, H %ld, %s: worst relative error %.3g\n", kQ, kH,
                m == QuadratureRowMethod::kFactor ? "factor" : "dense", worst);
    EXPECT_LT(worst, 1e-12);
  }
}

TEST(QuadratureRow, MatchesBruteForceOverLayerSubsets) {
  constexpr std::size_t kQ = 11, kH = 5;
  std::mt19937_64 rng(7);
  QuadratureRowSpec spec;
  spec.query = kQ;
  spec.alpha = {0.2, 0.7, 0.4, 0.55, 0.1};
  spec.key_scale = random_gains(kH, kQ, rng);
  spec.stay_scale = random_gains(kH, kQ, rng);
  std::vector<double> want2(kQ, 0.0);
  for (std::size_t mask = 0; mask < (1u << kH); ++mask) {
    std::vector<double> v(kQ, 0.0);
    v[kQ - 1] = 1.0;
    double w = 1.0;
    for (std::size_t l = kH; l-- > 0;) {
      for (std::size_t i = 0; i < kQ; ++i) v[i] *= spec.stay_scale[l][i];
      if (mask & (1u << l)) {
        std::vector<double> next(kQ, 0.0);
        for (std::size_t i = 0; i < kQ; ++i)
          for (std::size_t j = 0; j <= i; ++j)
            next[j] += v[i] / static_cast<double>(i + 1) * spec.key_scale[l][j];
        v = next;
        w *= spec.alpha[l];
      } else {
        w *= 1 - spec.alpha[l];
      }
    }
    for (std::size_t j = 0; j < kQ; ++j) want2[j] += w * w * v[j] * v[j];
  }
  std::vector<double> want(kQ);
  for (std::size_t j = 0; j < kQ; ++j) want[j] = std::sqrt(want2[j]);
  for (QuadratureRowMethod m : {QuadratureRowMethod::kFactor, QuadratureRowMethod::kDense}) {
    spec.method = m;
    const double worst = worst_relative_error(quadrature_row(spec), want);
    std::printf("brute force, q %zu, H %zu, %s: worst relative error %.3g\n", kQ, kH,
                m == QuadratureRowMethod::kFactor ? "factor" : "dense", worst);
    EXPECT_LT(worst, 1e-12);
  }
}

// rollout.h's dense recurrence with the operator's matrix in every layer.
std::vector<double> dense_reference(const QuadratureRowSpec& spec) {
  RolloutSpec rs;
  rs.length = spec.query;
  const auto q = static_cast<std::size_t>(spec.query);
  std::vector<double> dense(q * q, 0.0);
  for (std::size_t i = 1; i <= q; ++i) {
    const std::vector<double> row = AttentionOperator{}.dense_row(static_cast<std::int64_t>(i));
    std::copy(row.begin(), row.end(), dense.begin() + static_cast<std::ptrdiff_t>((i - 1) * q));
  }
  rs.attention.assign(spec.alpha.size(), dense);
  rs.alpha = spec.alpha;
  rs.key_scale = spec.key_scale;
  rs.stay_scale = spec.stay_scale;
  rs.paths = PathSum::kQuadrature;
  return rollout_row(rs);
}

TEST(QuadratureRow, MatchesTheMatrixRecurrence) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> a(0.05, 0.6);
  // (q, H): the factor form at 2^H <= q/2, the dense one beyond (kAuto's choice).
  for (const auto& [q, layers] : {std::pair<std::size_t, std::size_t>{256, 24}, {200, 6}}) {
    QuadratureRowSpec spec;
    spec.query = static_cast<std::int64_t>(q);
    for (std::size_t l = 0; l < layers; ++l) spec.alpha.push_back(a(rng));
    spec.key_scale = random_gains(layers, q, rng);
    spec.stay_scale = random_gains(layers, q, rng);
    const std::vector<double> want = dense_reference(spec);
    for (QuadratureRowMethod m : {QuadratureRowMethod::kAuto, QuadratureRowMethod::kDense}) {
      spec.method = m;
      const double worst = worst_relative_error(quadrature_row(spec), want);
      std::printf("matrix recurrence, q %zu, H %zu, %s: worst relative error %.3g\n", q, layers,
                  m == QuadratureRowMethod::kDense ? "dense" : "auto", worst);
      EXPECT_LT(worst, 1e-12);
    }
  }
  EXPECT_EQ(quadrature_row_method(256, 24), QuadratureRowMethod::kDense);
  EXPECT_EQ(quadrature_row_method(200, 6), QuadratureRowMethod::kFactor);
}

TEST(QuadratureRow, TheTwoFormsAgreeAtLongQ) {
  constexpr std::size_t kQ = 4096, kH = 8;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> a(0.05, 0.6);
  QuadratureRowSpec spec;
  spec.query = kQ;
  for (std::size_t l = 0; l < kH; ++l) spec.alpha.push_back(a(rng));
  spec.key_scale = random_gains(kH, kQ, rng);
  spec.stay_scale = random_gains(kH, kQ, rng);
  spec.method = QuadratureRowMethod::kFactor;
  const std::vector<double> factor = quadrature_row(spec);
  spec.method = QuadratureRowMethod::kDense;
  const double worst = worst_relative_error(factor, quadrature_row(spec));
  std::printf("factor against dense, q %zu, H %zu: worst relative error %.3g\n", kQ, kH, worst);
  EXPECT_LT(worst, 1e-12);
}

// The row of the squared operators (each position path in quadrature too) is another model:
// equal for one layer, different from two on, so the test above could tell them apart.
TEST(QuadratureRow, IsNotTheRowOfTheSquaredOperators) {
  constexpr std::size_t kQ = 16;
  QuadratureRowSpec spec;
  spec.query = kQ;
  spec.alpha = {0.3, 0.3};
  std::vector<double> r2(kQ, 0.0), next(kQ);
  r2[kQ - 1] = 1.0;
  for (int l = 0; l < 2; ++l) {
    std::fill(next.begin(), next.end(), 0.0);
    for (std::size_t i = 0; i < kQ; ++i)
      for (std::size_t j = 0; j <= i; ++j)
        next[j] += r2[i] / static_cast<double>((i + 1) * (i + 1));
    for (std::size_t j = 0; j < kQ; ++j) r2[j] = 0.49 * r2[j] + 0.09 * next[j];
  }
  std::vector<double> squared(kQ);
  for (std::size_t j = 0; j < kQ; ++j) squared[j] = std::sqrt(r2[j]);
  const double differs = worst_relative_error(quadrature_row(spec), squared);
  std::printf("against the squared operators: largest relative difference %.3g\n", differs);
  EXPECT_GT(differs, 0.1);
}

TEST(QuadratureRow, RejectsBadSpecs) {
  auto expect_bad = [](QuadratureRowSpec s, const char* what) {
    try {
      quadrature_row(s);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  QuadratureRowSpec ok;
  ok.query = 4;
  ok.alpha = {0.5, 0.5};
  EXPECT_NO_THROW(quadrature_row(ok));
  QuadratureRowSpec deep = ok;
  deep.alpha.assign(31, 0.5);
  deep.method = QuadratureRowMethod::kFactor;
  expect_bad(deep, "H <= 30");
  QuadratureRowSpec s = ok;
  s.query = 0;
  expect_bad(s, "query");
  s = ok;
  s.alpha = {0.5, 1.5};
  expect_bad(s, "α of layer 1");
  s = ok;
  s.key_scale = {{1, 1, 1, 1}};
  expect_bad(s, "one row per layer");
  s = ok;
  s.stay_scale = {{1, 1, 1}, {1, 1, 1, 1}};
  expect_bad(s, "shorter than q");
  s = ok;
  s.key_scale = {{1, 1, 0, 1}, {1, 1, 1, 1}};
  expect_bad(s, "finite and > 0");
}

}  // namespace
}  // namespace posbias
