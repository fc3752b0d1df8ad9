// Exact arithmetic: rational parsing, the closed form against hand-derived entries of Mᵏ,
// and log10 of rationals with huge numerators and denominators.
#include "posbias/theory/exact.h"

#include <gtest/gtest.h>

#include <cmath>

namespace posbias {
namespace {

TEST(Exact, ParsesRationalsExactly) {
  EXPECT_EQ(parse_rational("0.18"), mpq_class(9, 50));
  EXPECT_EQ(parse_rational("1/3"), mpq_class(1, 3));
  EXPECT_EQ(parse_rational("2.5e-3"), mpq_class(1, 400));
  EXPECT_EQ(parse_rational("1"), mpq_class(1));
  EXPECT_EQ(parse_rational(".5"), mpq_class(1, 2));
  EXPECT_EQ(parse_rational("6/4"), mpq_class(3, 2));
  for (const char* bad : {"", "abc", "1/0", "0.5.5", "-0.5", "nan", "1e99999", "0x10"}) {
    EXPECT_THROW(parse_rational(bad), std::invalid_argument) << bad;
  }
}

TEST(Exact, CesaroPowersByHand) {
  // M² row 3: (M²)[3][j] = Σ_k M[3][k] M[k][j] = (1/3)(1 + 1/2 + 1/3), (1/3)(1/2 + 1/3), (1/3)(1/3)
  EXPECT_EQ(cesaro_power_entry(3, 1, 2), mpq_class(11, 18));
  EXPECT_EQ(cesaro_power_entry(3, 2, 2), mpq_class(5, 18));
  EXPECT_EQ(cesaro_power_entry(3, 3, 2), mpq_class(1, 9));
  EXPECT_EQ(cesaro_power_entry(5, 5, 3), mpq_class(1, 125));  // diagonal is (1/i)^k
  EXPECT_EQ(cesaro_power_entry(4, 2, 0), mpq_class(0));
  EXPECT_EQ(cesaro_power_entry(4, 4, 0), mpq_class(1));
  // Rows of Mᵏ sum to 1.
  for (int k : {1, 4, 9}) {
    mpq_class total = 0;
    for (int j = 1; j <= 12; ++j) total += cesaro_power_entry(12, j, k);
    EXPECT_EQ(total, mpq_class(1)) << "k=" << k;
  }
}

TEST(Exact, RowOfNHIsStochasticAndMatchesSmallCase) {
  ExactSpec s;
  s.length = 3;
  s.layers = 1;
  s.alpha = {mpq_class(1, 2)};
  const auto row = exact_influence_row(s);
  // e_3ᵀ N = (1/2)e_3 + (1/2)(1/3, 1/3, 1/3)
  EXPECT_EQ(row[0], mpq_class(1, 6));
  EXPECT_EQ(row[1], mpq_class(1, 6));
  EXPECT_EQ(row[2], mpq_class(2, 3));
  s.length = 200;
  s.layers = 24;
  mpq_class total = 0;
  for (const auto& v : exact_influence_row(s)) total += v;
  EXPECT_EQ(total, mpq_class(1));
}

TEST(Exact, Log10OfHugeRationals) {
  mpz_class num, den;
  mpz_ui_pow_ui(num.get_mpz_t(), 3, 100000);
  mpz_ui_pow_ui(den.get_mpz_t(), 7, 60000);
  const mpq_class q(num, den);
  const double expected = 100000 * std::log10(3.0) - 60000 * std::log10(7.0);
  EXPECT_NEAR(log10_of(q), expected, 1e-9);  // the reference itself is only ~1e-11 exact
  EXPECT_TRUE(std::isinf(log10_of(mpq_class(0))));
  EXPECT_DOUBLE_EQ(log10_of(mpq_class(1, 1000)), -3.0);
}

TEST(Exact, CostBoundsTheNumbersItPlansFor) {
  // H = 1, α = 1/2, q = 10: the denominator is lcm(1..10)·2 = 5040, 12.3 bits.
  ExactSpec one{10, 0, 1, {mpq_class(1, 2)}, 0, 0};
  EXPECT_NEAR(exact_cost(one).denominator_bits, std::log2(5040.0), 1e-9);
  // A window W replaces lcm(1..q) by lcm(1..W); a sink share 1/3 adds log2(3) per layer.
  ExactSpec windowed{10, 0, 2, {mpq_class(1, 2)}, 4, mpq_class(1, 3)};
  EXPECT_NEAR(exact_cost(windowed).denominator_bits, 2 * std::log2(12.0 * 2 * 3), 1e-9);
  // Every fraction of a real row fits the planned bits; the bound is not loose by orders.
  for (std::int64_t layers : {1, 4, 16}) {
    ExactSpec spec{300, 0, layers, {mpq_class(1, 2)}, 0, 0};
    const ExactCost cost = exact_cost(spec);
    double widest = 0, text = 0;
    for (const mpq_class& x : exact_influence_row(spec)) {
      for (const mpz_class& z : {x.get_num(), x.get_den()})
        widest = std::max(widest, static_cast<double>(mpz_sizeinbase(z.get_mpz_t(), 2)));
      text += static_cast<double>(x.get_str().size());
    }
    EXPECT_LE(widest, std::ceil(cost.denominator_bits)) << "H = " << layers;
    EXPECT_LE(text, cost.text_bytes) << "H = " << layers;
    if (layers > 1) {
      EXPECT_GT(widest, 0.5 * cost.denominator_bits) << "H = " << layers;
    }
  }
}

TEST(Exact, RejectsBadSpecs) {
  ExactSpec s;
  s.length = 10;
  s.layers = 2;
  s.alpha = {mpq_class(3, 2)};
  EXPECT_THROW(exact_influence_row(s), std::invalid_argument);
  s.alpha = {mpq_class(1, 2)};
  s.length = kMaxExactLength + 1;
  EXPECT_THROW(exact_influence_row(s), std::invalid_argument);
  s.length = 10;
  s.sink = mpq_class(2);
  EXPECT_THROW(exact_influence_row(s), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
