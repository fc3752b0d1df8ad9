// ExtReal against long double / exact expectations: round trips, sums, products, text.
#include "posbias/theory/extended_real.h"

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace posbias {
namespace {

TEST(ExtReal, Log10RoundTripAtAnyMagnitude) {
  double worst = 0;
  for (double l = -100000.0; l <= 300.0; l += 37.123) {
    const ExtReal x = ExtReal::from_log10(l);
    worst = std::max(worst, std::fabs(x.log10() - l));
  }
  EXPECT_LT(worst, 1e-11 * 1.0) << "worst log10 round-trip error " << worst;
  // Near double range the value matches double exactly.
  EXPECT_DOUBLE_EQ(ExtReal(0.125).to_double(), 0.125);
  EXPECT_DOUBLE_EQ(ExtReal(3e-300).to_double(), 3e-300);
  EXPECT_EQ(ExtReal(0.0).to_double(), 0.0);
  EXPECT_TRUE(std::isinf(ExtReal(0.0).log10()));
}

TEST(ExtReal, ProductsAndSumsMatchMpf) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  mpf_set_default_prec(256);
  ExtReal prod(1.0), sum(0.0);
  mpf_class prod_ref(1.0), sum_ref(0.0);
  for (int i = 0; i < 4000; ++i) {
    const double f = u(rng) * 1e-3 + 1e-6;
    prod *= f;
    prod_ref *= f;
    const ExtReal term = prod * 3.0;
    sum += term;
    sum_ref += prod_ref * 3.0;
  }
  auto log10_mpf = [](const mpf_class& v) {
    long e = 0;
    const double m = mpf_get_d_2exp(&e, v.get_mpf_t());
    return std::log10(m) + static_cast<double>(e) * std::log10(2.0);
  };
  EXPECT_LT(prod.log10(), -12000);  // far below double's range
  EXPECT_NEAR(prod.log10(), log10_mpf(prod_ref), 1e-10);
  EXPECT_NEAR(sum.log10(), log10_mpf(sum_ref), 1e-10);
}

TEST(ExtReal, CompensatedSumIsExactToRounding) {
  // 1 + a million tiny terms: a naive double sum loses them all, the compensated one keeps them.
  CompensatedSum<double> d;
  CompensatedSum<ExtReal> e;
  d.add(1.0);
  e.add(ExtReal(1.0));
  for (int i = 0; i < 1000000; ++i) {
    d.add(1e-17);
    e.add(ExtReal(1e-17));
  }
  EXPECT_NEAR(d.value(), 1.0 + 1e-11, 1e-22);
  EXPECT_NEAR(e.value().to_double(), 1.0 + 1e-11, 1e-22);
}

TEST(ExtReal, SumAcrossExponentChunks) {
  const ExtReal big = ExtReal::from_log10(-10);
  const ExtReal tiny = ExtReal::from_log10(-90);  // a different 2^256 chunk
  const ExtReal vanishing = ExtReal::from_log10(-900);
  EXPECT_NEAR((big + tiny).log10(), -10 + std::log10(1 + 1e-80), 1e-15);
  EXPECT_EQ((big + vanishing).log10(), big.log10());
  CompensatedSum<ExtReal> acc;
  acc.add(tiny);
  acc.add(big);  // forces a rebase to the larger exponent
  acc.add(tiny);
  EXPECT_NEAR(acc.value().log10(), -10, 1e-15);
  EXPECT_TRUE(tiny < big);
  EXPECT_FALSE(big < tiny);
}

TEST(ExtReal, TextBeyondDoubleRange) {
  EXPECT_EQ(ExtReal(0.25).to_string(), "0.25");
  EXPECT_EQ(ExtReal(0.0).to_string(), "0");
  const std::string s = ExtReal::from_log10(-570.0 + std::log10(3.25)).to_string();
  EXPECT_EQ(s, "3.25e-570");
}

// A factor below 2^-128, down to the subnormal 2^-1074, keeps every digit (it underflowed to 0).
TEST(ExtReal, TinyFactorsDoNotUnderflow) {
  const double smallest = std::ldexp(1.0, -1074);  // 4.9e-324
  for (const double f : {smallest, 3 * smallest, std::ldexp(1.0, -1022), 1e-300, 1e-40}) {
    ExtReal x(1.5);
    x *= f;
    EXPECT_NEAR(x.log10(), std::log10(1.5) + std::log10(f), 1e-14) << f;
    ExtReal y(std::ldexp(1.0, -200));  // a small mantissa times a small factor
    y *= f;
    EXPECT_NEAR(y.log10(), -200 * std::log10(2.0) + std::log10(f), 1e-13) << f;
  }
}

}  // namespace
}  // namespace posbias
