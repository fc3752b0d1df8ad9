// Rng against values computed outside posbias: SplitMix64's published recurrence, done in
// Python's arbitrary-precision integers for seed 42 (the same draws on every standard library).
#include "posbias/core/rng.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace posbias {
namespace {

TEST(Rng, DrawsSplitMix64sSequence) {
  Rng rng(42);
  EXPECT_EQ(rng.next(), 0xbdd732262feb6e95ull);
  EXPECT_EQ(rng.next(), 0x28efe333b266f103ull);
  EXPECT_EQ(rng.next(), 0x47526757130f9f52ull);
}

TEST(Rng, UnitIsTheTop53BitsOfADraw) {
  Rng rng(42);
  // (x >> 11) / 2^53 for the three draws above, as Python prints the doubles.
  EXPECT_EQ(rng.unit(), 0.7415648787718233);
  EXPECT_EQ(rng.unit(), 0.1599103928769201);
  EXPECT_EQ(rng.unit(), 0.27860113025513866);
}

TEST(Rng, UnitFillsTenBinsEvenly) {
  Rng rng(7);
  std::array<int, 10> bins{};
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    ++bins[static_cast<std::size_t>(u * 10)];
  }
  double chi2 = 0;  // 9 degrees of freedom: above 27.9 once in a thousand seeds
  for (int b : bins) chi2 += (b - n / 10.0) * (b - n / 10.0) / (n / 10.0);
  EXPECT_LT(chi2, 27.9);
}

}  // namespace
}  // namespace posbias
