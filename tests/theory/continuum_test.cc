// The continuum limit: closed-form masses, agreement with the discrete row at L = 1e5
// (within 2% in the bulk 1e-3 < x < 0.9), and the reported derived quantities.
#include "posbias/theory/continuum.h"

#include <gtest/gtest.h>

#include <cmath>

#include "posbias/theory/influence.h"

namespace posbias {
namespace {

TEST(Continuum, OneLayerIsFlatPlusDelta) {
  const Continuum c(1, {0.3});
  EXPECT_NEAR(c.recency_mass(), 0.7, 1e-15);
  EXPECT_NEAR(c.density(0.2), 0.3, 1e-14);
  EXPECT_NEAR(c.density(0.9), 0.3, 1e-14);
  EXPECT_NEAR(c.mass(0.1, 0.6), 0.15, 1e-14);
}

TEST(Continuum, MassesSumToOne) {
  for (const auto& [h, a] :
       std::vector<std::pair<int, double>>{{4, 0.5}, {24, 0.5}, {12, 0.9}, {96, 0.3}}) {
    const Continuum c(h, {a});
    EXPECT_NEAR(c.mass(0.0, 1.0) + c.recency_mass(), 1.0, 1e-12) << "H=" << h;
    EXPECT_NEAR(c.recency_mass(), std::pow(1 - a, h), 1e-15);
    EXPECT_NEAR(c.mass(0, 0.3) + c.mass(0.3, 1.0), c.mass(0, 1.0), 1e-12);
  }
}

TEST(Continuum, DensityIsProductOfUniforms) {
  // α = 1: only k = H survives; ρ(x) = (ln 1/x)^{H-1} / (H-1)!.
  const Continuum c(5, {1.0});
  for (double x : {0.01, 0.3, 0.77}) {
    const double t = std::log(1 / x);
    EXPECT_NEAR(c.density(x), std::pow(t, 4) / 24.0, 1e-12 * std::pow(t, 4));
  }
  EXPECT_EQ(c.recency_mass(), 0.0);
}

TEST(Continuum, PerLayerWeightsMatchBinomial) {
  const Continuum uniform(10, {0.4});
  const Continuum layered(10, std::vector<double>(10, 0.4));
  for (std::size_t k = 0; k <= 10; ++k) {
    EXPECT_NEAR(uniform.log_weights()[k], layered.log_weights()[k], 1e-12) << k;
  }
}

TEST(Continuum, DiscreteRowConvergesInTheBulk) {
  constexpr std::int64_t kL = 100000;
  for (const auto& [h, a] :
       std::vector<std::pair<int, double>>{{4, 0.5}, {8, 0.5}, {24, 0.5}, {12, 0.9}, {6, 1.0}}) {
    InfluenceSpec s;
    s.length = kL;
    s.layers = h;
    s.alpha = {a};
    const auto row = influence_row(s);
    const Continuum c(h, {a});
    double worst = 0;
    for (std::int64_t j = 101; j < 90000; j += 37) {
      const double x = static_cast<double>(j) / kL;
      const double discrete = row[j - 1].log10() + std::log10(static_cast<double>(kL));
      worst = std::max(worst, std::fabs(std::pow(10.0, discrete - c.log10_density(x)) - 1));
    }
    EXPECT_LT(worst, 0.02) << "H=" << h << " α=" << a;
    // The recency anchor and the primacy mass match too.
    EXPECT_NEAR(row.back().to_double(), c.recency_mass() + c.density(1.0 - 0.5 / kL) / kL, 1e-4);
    CompensatedSum<ExtReal> first;
    for (std::int64_t j = 1; j <= kL / 20; ++j) first.add(row[j - 1]);
    EXPECT_NEAR(first.value().to_double(), c.primacy_mass(0.05), 2e-3) << "H=" << h;
  }
}

TEST(Continuum, MiddleToEndsShrinksWithDepth) {
  double previous = INFINITY;
  for (int h : {2, 6, 12, 24, 48}) {
    const double r = Continuum(h, {0.5}).middle_to_ends();
    EXPECT_LT(r, previous) << "H=" << h;
    previous = r;
  }
}

TEST(Continuum, RejectsBadInput) {
  EXPECT_THROW(Continuum(-1, {0.5}), std::invalid_argument);
  EXPECT_THROW(Continuum(3, {0.5, 0.2}), std::invalid_argument);
  EXPECT_THROW(Continuum(3, {0.5}).mass(0.5, 0.2), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
