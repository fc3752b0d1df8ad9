// The null-sink operator M_b[i][j] = 1/(i + w), w = e^b (theory/operator.h): the exact recurrence
// against a brute-force product of dense rational matrices with w a rational (1, 3/2, 7/3, with a
// window, a sink share and per-layer α), the float engines against the exact row, and the
// operator's dense rows against 1/(i + w).
#include <gtest/gtest.h>

#include <cmath>

#include "posbias/theory/exact.h"
#include "posbias/theory/influence.h"

namespace posbias {
namespace {

// Row q of Π_l ((1−α_l) I + α_l A), A[i][j] = (1−sink)/(min(i, W) + w) on the window, plus sink
// on key 1: dense matrices, vector times matrix H times.
std::vector<mpq_class> brute_force_row(const ExactSpec& s) {
  const std::int64_t q = s.query_position();
  std::vector<std::vector<mpq_class>> a(q, std::vector<mpq_class>(q, mpq_class(0)));
  for (std::int64_t i = 1; i <= q; ++i) {
    const std::int64_t first = s.window > 0 ? std::max<std::int64_t>(1, i - s.window + 1) : 1;
    const mpq_class weight = (1 - s.sink) / (mpq_class(i - first + 1) + s.null_sink_weight);
    for (std::int64_t j = first; j <= i; ++j) a[i - 1][j - 1] = weight;
    a[i - 1][0] += s.sink;
  }
  std::vector<mpq_class> row(q, mpq_class(0));
  row[q - 1] = 1;
  for (std::int64_t l = 0; l < s.layers; ++l) {
    const mpq_class& alpha = s.alpha.size() == 1 ? s.alpha[0] : s.alpha[l];
    std::vector<mpq_class> next(q, mpq_class(0));
    for (std::int64_t i = 0; i < q; ++i) {
      next[i] += (1 - alpha) * row[i];
      for (std::int64_t j = 0; j <= i; ++j) next[j] += alpha * row[i] * a[i][j];
    }
    row = next;
  }
  return row;
}

TEST(NullSinkOperator, ExactRowEqualsTheBruteForceProduct) {
  std::int64_t checked = 0;
  for (const mpq_class& w : {mpq_class(0), mpq_class(1), mpq_class(3, 2), mpq_class(7, 3)}) {
    for (std::int64_t window : {0, 3}) {
      for (const mpq_class& sink : {mpq_class(0), mpq_class(1, 5)}) {
        ExactSpec s;
        s.length = 9;
        s.layers = 3;
        s.alpha = {mpq_class(1, 2), mpq_class(1), mpq_class(2, 7)};
        s.window = window;
        s.sink = sink;
        s.null_sink_weight = w;
        const auto want = brute_force_row(s);
        const auto got = exact_influence_row(s);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t j = 0; j < got.size(); ++j) {
          EXPECT_EQ(got[j], want[j]) << "w " << w.get_str() << " W " << window << " sink "
                                     << sink.get_str() << " j " << j + 1;
        }
        // The cost's denominator bound holds the row's denominators.
        const double bits = exact_cost(s).denominator_bits;
        for (const auto& v : got) EXPECT_LE(mpz_sizeinbase(v.get_den_mpz_t(), 2), bits + 1);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 16);
}

TEST(NullSinkOperator, OneLayerByHand) {
  // H = 1, α = 1, w = 3/2: row q of M_b is 1/(q + 3/2) = 2/(2q + 3) at every key.
  ExactSpec s;
  s.length = 5;
  s.layers = 1;
  s.alpha = {mpq_class(1)};
  s.null_sink_weight = mpq_class(3, 2);
  for (const auto& v : exact_influence_row(s)) EXPECT_EQ(v, mpq_class(2, 13));
}

TEST(NullSinkOperator, FloatEnginesMatchTheExactRow) {
  for (double w : {1.0, 1.5, std::exp(2.0)}) {
    ExactSpec e;
    e.length = 200;
    e.layers = 6;
    e.alpha = {mpq_class(3, 5)};
    e.null_sink_weight = mpq_class(w);  // the double itself, exactly
    const auto exact = exact_influence_row(e);
    InfluenceSpec f;
    f.length = 200;
    f.layers = 6;
    f.alpha = {0.6};
    f.op.null_sink_weight = w;
    const auto as_double = influence_row_double(f);
    const auto as_ext = influence_row(f);
    double worst = 0;
    for (std::size_t j = 0; j < exact.size(); ++j) {
      const double want = exact[j].get_d();
      worst = std::max(worst, std::fabs(as_double[j] / want - 1));
      worst = std::max(worst, std::fabs(as_ext[j].log10() - log10_of(exact[j])) * std::log(10.0));
    }
    EXPECT_LT(worst, 1e-12) << "w " << w << ": worst relative error";
  }
}

TEST(NullSinkOperator, DenseRowsAreOneOverIPlusW) {
  AttentionOperator op;
  op.null_sink_weight = std::exp(2.0);
  EXPECT_FALSE(op.is_cesaro());
  EXPECT_EQ(op.describe(), "null_sink=2");
  for (std::int64_t i : {1, 5, 40}) {
    const auto row = op.dense_row(i);
    for (double v : row)
      EXPECT_NEAR(v, 1.0 / (static_cast<double>(i) + op.null_sink_weight), 1e-15);
  }
  AttentionOperator bad;
  bad.null_sink_weight = -1;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
  bad.null_sink_weight = INFINITY;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
