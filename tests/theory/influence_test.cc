// The influence engine against independent references:
//   - GMP exact rationals (exact_influence_row) and the alternating closed form;
//   - a 256-bit mpf recurrence written here, for L = 1e5 and H in the hundreds;
//   - brute-force dense products with AttentionOperator::dense_row for the generalized
//     operators (window, ALiBi, sink, per-layer α).
// Tolerances: relative 1e-12 where double can represent the value, log10 1e-12 everywhere.
#include "posbias/theory/influence.h"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "posbias/arch/config.h"
#include "posbias/theory/exact.h"

namespace posbias {
namespace {

InfluenceSpec cesaro(std::int64_t length, std::int64_t layers, std::vector<double> alpha,
                     std::int64_t query = 0) {
  InfluenceSpec s;
  s.length = length;
  s.layers = layers;
  s.alpha = std::move(alpha);
  s.query = query;
  return s;
}

double log10_mpf(const mpf_class& v) {
  if (v == 0) return -INFINITY;
  long e = 0;
  const double m = mpf_get_d_2exp(&e, v.get_mpf_t());
  return std::log10(m) + static_cast<double>(e) * 0.30102999566398119521;
}

// Independent high-precision reference: the textbook recurrence in 256-bit floats, which
// have a 64-bit exponent and so never underflow.
std::vector<mpf_class> mpf_row(std::int64_t q, std::int64_t layers, double alpha) {
  mpf_set_default_prec(256);
  std::vector<mpf_class> r(static_cast<std::size_t>(q), mpf_class(0));
  r[q - 1] = 1;
  const mpf_class a(alpha), keep = mpf_class(1) - mpf_class(alpha);
  mpf_class acc, t;
  for (std::int64_t l = 0; l < layers; ++l) {
    acc = 0;
    for (std::int64_t j = q; j >= 1; --j) {
      t = r[j - 1] / static_cast<unsigned long>(j);
      acc += t;
      r[j - 1] = keep * r[j - 1] + a * acc;
    }
  }
  return r;
}

struct Worst {
  double rel = 0, log10 = 0;
};

// Compares the double and extended-range rows with exact log10 references.
Worst compare(const std::vector<double>& reference_log10, const InfluenceSpec& spec) {
  const std::vector<ExtReal> ext = influence_row(spec);
  const std::vector<double> dbl = influence_row_double(spec);
  EXPECT_EQ(ext.size(), reference_log10.size());
  Worst w;
  for (std::size_t j = 0; j < reference_log10.size(); ++j) {
    const double ref = reference_log10[j];
    if (std::isinf(ref)) {
      EXPECT_TRUE(ext[j].is_zero()) << "position " << j + 1;
      continue;
    }
    w.log10 = std::max(w.log10, std::fabs(ext[j].log10() - ref));
    if (ref > -300) {  // comfortably inside double's normal range
      const double exact = std::pow(10.0, ref);
      w.rel = std::max(w.rel, std::fabs(dbl[j] - exact) / exact);
      w.rel = std::max(w.rel, std::fabs(ext[j].to_double() - exact) / exact);
    }
  }
  return w;
}

std::vector<double> exact_log10(const ExactSpec& spec) {
  std::vector<double> out;
  for (const auto& v : exact_influence_row(spec)) out.push_back(log10_of(v));
  return out;
}

TEST(Influence, MatchesExactRationalsAndClosedForm) {
  for (const auto& [q, h, alpha_text] :
       std::vector<std::tuple<int, int, std::string>>{{1, 5, "1/2"},
                                                      {2, 3, "1/2"},
                                                      {17, 4, "0.18"},
                                                      {60, 24, "1/2"},
                                                      {60, 24, "1"},
                                                      {45, 12, "0.9"},
                                                      {30, 0, "0.5"},
                                                      {80, 40, "0.25"}}) {
    ExactSpec es;
    es.length = q;
    es.layers = h;
    es.alpha = {parse_rational(alpha_text)};
    const std::vector<mpq_class> exact = exact_influence_row(es);
    if (q <= 60) {
      const std::vector<mpq_class> closed = closed_form_row(q, h, es.alpha);
      for (int j = 0; j < q; ++j)
        ASSERT_EQ(exact[j], closed[j]) << "q=" << q << " H=" << h << " j=" << j + 1;
    }
    std::vector<double> ref;
    for (const auto& v : exact) ref.push_back(log10_of(v));
    const Worst w = compare(ref, cesaro(q, h, {es.alpha[0].get_d()}));
    EXPECT_LE(w.rel, 1e-12) << "q=" << q << " H=" << h << " α=" << alpha_text;
    EXPECT_LE(w.log10, 1e-12) << "q=" << q << " H=" << h << " α=" << alpha_text;
  }
}

// α below 2^-128, down to the smallest subnormal 2^-1074 (4.9e-324), used to underflow to a
// row of zeros; the extended-range row now matches the exact one to 1e-12 in log10.
TEST(Influence, TinyAlphaMatchesExact) {
  for (const int k : {1074, 1000, 200}) {
    ExactSpec es;
    es.length = 40;
    es.layers = 3;
    mpz_class denominator = 1;
    mpz_mul_2exp(denominator.get_mpz_t(), denominator.get_mpz_t(), static_cast<unsigned>(k));
    es.alpha = {mpq_class(mpz_class(1), denominator)};
    const std::vector<double> ref = exact_log10(es);
    const Worst w = compare(ref, cesaro(40, 3, {std::ldexp(1.0, -k)}));
    EXPECT_LE(w.log10, 1e-12) << "α = 2^-" << k;
    EXPECT_LT(ref[0], -k * std::log10(2.0) + 1) << "α = 2^-" << k;  // the reference is tiny too
  }
}

TEST(Influence, PerLayerAlphaMatchesExact) {
  const std::vector<std::string> alphas = {"0.1", "0.9", "0.5", "0.3", "1", "0", "0.75"};
  ExactSpec es;
  es.length = 50;
  es.layers = static_cast<std::int64_t>(alphas.size());
  std::vector<double> alpha_d;
  for (const auto& a : alphas) {
    es.alpha.push_back(parse_rational(a));
    alpha_d.push_back(std::stod(a));
  }
  const Worst w = compare(exact_log10(es), cesaro(50, es.layers, alpha_d));
  EXPECT_LE(w.rel, 1e-12);
  EXPECT_LE(w.log10, 1e-12);
  // The closed form with per-layer α (Nᴴ = Σ_k c_k Mᵏ) agrees exactly too.
  const auto closed = closed_form_row(50, es.layers, es.alpha);
  const auto exact = exact_influence_row(es);
  for (int j = 0; j < 50; ++j) ASSERT_EQ(exact[j], closed[j]);
}

TEST(Influence, QueryBeforeTheEnd) {
  ExactSpec es;
  es.length = 100;
  es.query = 37;
  es.layers = 9;
  es.alpha = {parse_rational("0.4")};
  const Worst w = compare(exact_log10(es), cesaro(100, 9, {0.4}, 37));
  EXPECT_LE(w.rel, 1e-12);
  EXPECT_LE(w.log10, 1e-12);
}

// L >= 1e5 and H in the hundreds: entries reach ~1e-1500, far below double; log10 must
// still be right to 1e-12 everywhere. The pipelined two-thread path is exercised here.
TEST(Influence, LargeScaleLog10AgainstHighPrecision) {
  struct Case {
    std::int64_t q, h;
    double alpha;
  };
  for (const Case c : {Case{100000, 200, 1.0}, Case{100000, 300, 0.99}}) {
    const std::vector<mpf_class> ref = mpf_row(c.q, c.h, c.alpha);
    std::vector<double> ref_log10;
    for (const auto& v : ref) ref_log10.push_back(log10_mpf(v));
    const Worst w = compare(ref_log10, cesaro(c.q, c.h, {c.alpha}));
    double smallest = 0;
    for (double l : ref_log10) smallest = std::min(smallest, l);
    EXPECT_LT(smallest, -308) << "the case must reach below double's range";
    EXPECT_LE(w.log10, 1e-12) << "H=" << c.h << " worst log10 error " << w.log10;
    EXPECT_LE(w.rel, 1e-12) << "H=" << c.h << " worst relative error " << w.rel;
  }
}

TEST(Influence, RowsAreStochastic) {
  for (const auto& spec : {cesaro(5000, 24, {0.5}), cesaro(300000, 12, {0.3})}) {
    const auto row = influence_row(spec);
    CompensatedSum<ExtReal> total;
    for (const auto& v : row) total.add(v);
    EXPECT_NEAR(total.value().to_double(), 1.0, 1e-13);
  }
}

// Dense brute force: r ← r·N_l with N_l = (1-α_l)I + α_l·A built from dense_row.
std::vector<long double> dense_reference(const InfluenceSpec& s) {
  const std::int64_t q = s.query_position();
  std::vector<std::vector<double>> rows;
  for (std::int64_t i = 1; i <= q; ++i) rows.push_back(s.op.dense_row(i));
  std::vector<long double> r(static_cast<std::size_t>(q), 0.0L);
  r[q - 1] = 1.0L;
  for (std::int64_t l = 0; l < s.layers; ++l) {
    const long double a = s.alpha_at(l);
    std::vector<long double> next(r.size(), 0.0L);
    for (std::int64_t i = 1; i <= q; ++i) {
      next[i - 1] += (1 - a) * r[i - 1];
      for (std::int64_t j = 1; j <= i; ++j) next[j - 1] += a * r[i - 1] * rows[i - 1][j - 1];
    }
    r = next;
  }
  return r;
}

TEST(Influence, GeneralizedOperatorsMatchDenseProducts) {
  struct Case {
    std::string name;
    std::int64_t q, h;
    std::vector<double> alpha;
    AttentionOperator op;
  };
  const std::vector<Case> cases = {
      {"window", 64, 6, {0.5}, {7, {}, 0.0}},
      {"window=1 (identity)", 20, 5, {0.5}, {1, {}, 0.0}},
      {"window >= q", 30, 4, {0.5}, {50, {}, 0.0}},
      {"alibi one slope", 64, 6, {0.5}, {0, {0.5}, 0.0}},
      {"alibi heads", 70, 5, {0.25}, {0, alibi_standard_slopes(8), 0.0}},
      {"alibi + window", 64, 4, {0.6}, {9, {0.3}, 0.0}},
      {"sink", 64, 6, {0.7}, {0, {}, 0.2}},
      {"window + sink", 64, 4, {0.5}, {5, {}, 0.1}},
      {"everything, per-layer α", 64, 4, {0.2, 0.9, 0.4, 1.0}, {11, {0.1, 1.0}, 0.05}},
  };
  for (const Case& c : cases) {
    InfluenceSpec s;
    s.length = c.q;
    s.layers = c.h;
    s.alpha = c.alpha;
    s.op = c.op;
    const auto ref = dense_reference(s);
    const auto ext = influence_row(s);
    const auto dbl = influence_row_double(s);
    double worst = 0;
    for (std::size_t j = 0; j < ref.size(); ++j) {
      if (ref[j] == 0) {
        EXPECT_TRUE(ext[j].is_zero()) << c.name << " j=" << j + 1;
        continue;
      }
      if (ref[j] < 1e-280L) continue;
      const long double e =
          std::fabs(static_cast<long double>(ext[j].to_double()) - ref[j]) / ref[j];
      const long double d = std::fabs(static_cast<long double>(dbl[j]) - ref[j]) / ref[j];
      worst = std::max({worst, static_cast<double>(e), static_cast<double>(d)});
    }
    EXPECT_LE(worst, 1e-12) << c.name;
  }
}

TEST(Influence, WindowAndSinkMatchExactRationals) {
  ExactSpec es;
  es.length = 90;
  es.layers = 12;
  es.alpha = {parse_rational("0.5")};
  es.window = 13;
  es.sink = parse_rational("0.15");
  InfluenceSpec s = cesaro(90, 12, {0.5});
  s.op.window = 13;
  s.op.sink = 0.15;
  const Worst w = compare(exact_log10(es), s);
  EXPECT_LE(w.rel, 1e-12);
  EXPECT_LE(w.log10, 1e-12);
}

TEST(Influence, ApplyOperatorMatchesDenseRows) {
  AttentionOperator op{6, {0.2, 0.7}, 0.1};
  std::vector<double> r(40);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = 1.0 / static_cast<double>(i + 3);
  const auto s = apply_operator(op, r);
  for (std::size_t j = 0; j < r.size(); ++j) {
    long double ref = 0;
    for (std::size_t i = j; i < r.size(); ++i)
      ref += r[i] * op.dense_row(static_cast<std::int64_t>(i + 1))[j];
    EXPECT_NEAR(s[j], static_cast<double>(ref), 1e-15 * static_cast<double>(ref) + 1e-300);
  }
}

TEST(Influence, RejectsBadInputBeforeAllocating) {
  auto bad = [](InfluenceSpec s) { EXPECT_THROW(influence_row(s), std::invalid_argument); };
  bad(cesaro(0, 3, {0.5}));
  bad(cesaro(-5, 3, {0.5}));
  bad(cesaro(10, -1, {0.5}));
  bad(cesaro(10, 3, {NAN}));
  bad(cesaro(10, 3, {1.5}));
  bad(cesaro(10, 3, {-0.1}));
  bad(cesaro(10, 3, {0.5, 0.5}));  // two α for three layers
  bad(cesaro(10, 3, {0.5}, 11));
  bad(cesaro(std::int64_t{1} << 50, 3, {0.5}));  // far beyond memory
  InfluenceSpec w = cesaro(10, 3, {0.5});
  w.op.window = -1;
  bad(w);
  w.op.window = 0;
  w.op.sink = NAN;
  bad(w);
  w.op.sink = 0;
  w.op.alibi_slopes = {-1};
  bad(w);
}

// Quadrature path sums against exact rationals: ρ_j² = Σ_S w_S² ((M^|S|)[q][j])², summed over
// every subset S of the layers (2^H of them, enumerated here, independent of the engine's
// O(H²) weights), with the Cesàro powers from the closed form in GMP. Uniform and per-layer α,
// query at the end and before it.
TEST(Influence, QuadraturePathsMatchSubsetSumsInRationals) {
  const std::vector<std::vector<double>> alphas = {{0.25}, {0.25, 0.5, 0.75, 0.125, 0.375}};
  for (const auto& alpha : alphas) {
    for (std::int64_t query : {0, 7}) {
      constexpr std::int64_t kLength = 11, kLayers = 5;
      InfluenceSpec spec = cesaro(kLength, kLayers, alpha, query);
      spec.paths = PathSum::kQuadrature;
      const std::vector<double> got = influence_row_double(spec);
      const std::vector<ExtReal> got_ext = influence_row(spec);
      const std::int64_t q = spec.query_position();
      ASSERT_EQ(static_cast<std::int64_t>(got.size()), q);
      for (std::int64_t j = 1; j <= q; ++j) {
        mpq_class sum = 0;
        for (unsigned mask = 0; mask < (1u << kLayers); ++mask) {
          mpq_class w = 1;
          int size = 0;
          for (std::int64_t l = 0; l < kLayers; ++l) {
            const mpq_class a = spec.alpha_at(l);  // dyadic: exact in both
            const bool attends = (mask >> l) & 1u;
            w *= attends ? a : mpq_class(1 - a);
            size += attends ? 1 : 0;
          }
          const mpq_class entry = cesaro_power_entry(q, j, size);
          sum += w * w * entry * entry;
        }
        const double want = std::sqrt(sum.get_d());
        EXPECT_NEAR(got[j - 1], want, 1e-12 * want) << "j=" << j << " q=" << q;
        EXPECT_NEAR(got_ext[j - 1].log10(), std::log10(want), 1e-12) << "j=" << j;
      }
    }
  }
  EXPECT_EQ(parse_path_sum("quadrature"), PathSum::kQuadrature);
  EXPECT_THROW(parse_path_sum("cubic"), std::invalid_argument);
}

}  // namespace
}  // namespace posbias

namespace posbias {
namespace {

// The model behind the quadrature path sum: a linear network whose layers mix positions as
// x_i ← (1-α)·R_l x_i + α·U_l·(1/i)Σ_{k≤i} x_k, with R_l and U_l independent random orthogonal
// d×d matrices (Gram-Schmidt on Gaussians). Every layer set S then carries its own matrix
// product, and E‖∂x_q/∂x_j‖²_F / d is exactly the quadrature row squared. The Monte Carlo
// mean over draws must agree within its sampling error; the linear row must not.
using Matrix = std::vector<double>;  // d×d, row-major

Matrix random_orthogonal(int d, std::mt19937_64& rng) {
  std::normal_distribution<double> n01;
  Matrix q(static_cast<std::size_t>(d * d));
  for (auto& v : q) v = n01(rng);
  for (int r = 0; r < d; ++r) {  // rows become orthonormal
    double* row = &q[static_cast<std::size_t>(r * d)];
    for (int p = 0; p < r; ++p) {
      const double* prev = &q[static_cast<std::size_t>(p * d)];
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += row[c] * prev[c];
      for (int c = 0; c < d; ++c) row[c] -= dot * prev[c];
    }
    double norm = 0;
    for (int c = 0; c < d; ++c) norm += row[c] * row[c];
    for (int c = 0; c < d; ++c) row[c] /= std::sqrt(norm);
  }
  return q;
}

// out = a·b (d×d)
void matmul(const Matrix& a, const Matrix& b, Matrix& out, int d) {
  std::fill(out.begin(), out.end(), 0.0);
  for (int i = 0; i < d; ++i)
    for (int k = 0; k < d; ++k) {
      const double v = a[static_cast<std::size_t>(i * d + k)];
      for (int j = 0; j < d; ++j)
        out[static_cast<std::size_t>(i * d + j)] += v * b[static_cast<std::size_t>(k * d + j)];
    }
}

TEST(Influence, QuadratureIsTheRandomMatrixNetworkExpectation) {
  constexpr int kLength = 6, kLayers = 3, kDim = 24, kDraws = 60;
  constexpr double kAlpha = 0.4;
  std::mt19937_64 rng(7);
  std::vector<double> mean_sq(kLength, 0.0);
  const auto idx = [](int i, int j) { return static_cast<std::size_t>(i * kLength + j); };
  for (int draw = 0; draw < kDraws; ++draw) {
    // jac[i][j] = ∂x_i/∂x⁰_j, starting from the identity on the diagonal
    std::vector<Matrix> jac(kLength * kLength, Matrix(kDim * kDim, 0.0));
    for (int i = 0; i < kLength; ++i)
      for (int c = 0; c < kDim; ++c) jac[idx(i, i)][static_cast<std::size_t>(c * kDim + c)] = 1;
    Matrix tmp(kDim * kDim), mixed(kDim * kDim);
    for (int l = 0; l < kLayers; ++l) {
      const Matrix r = random_orthogonal(kDim, rng), u = random_orthogonal(kDim, rng);
      std::vector<Matrix> next(jac.size(), Matrix(kDim * kDim, 0.0));
      for (int j = 0; j < kLength; ++j) {
        Matrix prefix(kDim * kDim, 0.0);  // Σ_{k≤i} jac[k][j]
        for (int i = 0; i < kLength; ++i) {
          for (std::size_t e = 0; e < prefix.size(); ++e) prefix[e] += jac[idx(i, j)][e];
          for (std::size_t e = 0; e < prefix.size(); ++e) mixed[e] = prefix[e] / (i + 1);
          matmul(r, jac[idx(i, j)], tmp, kDim);
          for (std::size_t e = 0; e < tmp.size(); ++e) next[idx(i, j)][e] = (1 - kAlpha) * tmp[e];
          matmul(u, mixed, tmp, kDim);
          for (std::size_t e = 0; e < tmp.size(); ++e) next[idx(i, j)][e] += kAlpha * tmp[e];
        }
      }
      jac.swap(next);
    }
    for (int j = 0; j < kLength; ++j) {
      double sq = 0;
      for (double v : jac[idx(kLength - 1, j)]) sq += v * v;
      mean_sq[static_cast<std::size_t>(j)] += sq / kDim / kDraws;
    }
  }
  InfluenceSpec spec = cesaro(kLength, kLayers, {kAlpha});
  spec.paths = PathSum::kQuadrature;
  const auto quad = influence_row_double(spec);
  spec.paths = PathSum::kLinear;
  const auto lin = influence_row_double(spec);
  double worst_quad = 0, worst_lin = 0;
  for (int j = 0; j < kLength; ++j) {
    const double measured = std::sqrt(mean_sq[static_cast<std::size_t>(j)]);
    worst_quad = std::max(worst_quad, std::fabs(measured / quad[j] - 1));
    worst_lin = std::max(worst_lin, std::fabs(measured / lin[j] - 1));
  }
  EXPECT_LT(worst_quad, 0.03) << "quadrature row vs the random-matrix network";
  EXPECT_GT(worst_lin, 0.15) << "the linear row should not describe it";
}

}  // namespace
}  // namespace posbias
