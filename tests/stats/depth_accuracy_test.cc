// Accuracy by depth and length (stats/depth_accuracy.h): Wilson and Newcombe against Newcombe
// 1998's worked examples, RULER's effective length on hand-made tables, the U verdict on a
// synthetic U (must say "U") and on the same flags shuffled across depths (the control that
// must fail: "no U", and a chi-square across depths that does not reject).
#include "posbias/stats/depth_accuracy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "posbias/core/rng.h"

namespace posbias {
namespace {

const std::vector<double> kDepths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};

// Newcombe (1998), "Interval estimation for the difference between independent proportions:
// comparison of eleven methods", Stat. Med. 17:873-890, Table II, method 10 (4 decimals).
TEST(DepthAccuracy, NewcombeMatchesThePapersWorkedExamples) {
  struct Case {
    std::int64_t a, m, b, n;
    double lo, hi;
  };
  const Case cases[] = {{56, 70, 48, 80, 0.0524, 0.3339},
                        {9, 10, 3, 10, 0.1705, 0.8090},
                        {5, 56, 0, 29, -0.0381, 0.1926},
                        {0, 10, 0, 20, -0.1611, 0.2775},
                        {10, 10, 0, 20, 0.6791, 1.0000}};
  double worst = 0;
  for (const Case& c : cases) {
    const Difference d = newcombe_difference(c.a, c.m, c.b, c.n);
    EXPECT_NEAR(d.estimate, double(c.a) / double(c.m) - double(c.b) / double(c.n), 1e-15);
    worst = std::max({worst, std::abs(d.lo - c.lo), std::abs(d.hi - c.hi)});
  }
  EXPECT_LT(worst, 5.1e-5) << "worst error against the paper's 4 decimals: " << worst;
}

// Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat. Med.
// 17:857-872: 81/263 has the Wilson score interval 0.2553 to 0.3662.
TEST(DepthAccuracy, CellCarriesTheWilsonInterval) {
  const DepthCell c = depth_cell(81, 263, 0.1);
  EXPECT_NEAR(c.accuracy, 81.0 / 263.0, 1e-15);
  EXPECT_NEAR(c.lo, 0.2553, 5e-5);
  EXPECT_NEAR(c.hi, 0.3662, 5e-5);
  EXPECT_EQ(c.chance, 0.1);
  EXPECT_TRUE(std::isnan(depth_cell(0, 0, 0.1).accuracy));
}

TEST(DepthAccuracy, EffectiveLengthFollowsRulersRule) {
  const std::vector<int> lengths = {64, 128, 256, 512};
  EXPECT_EQ(effective_length(lengths, {0.99, 0.9, 0.86, 0.9}, 0.856), 512);
  // A length past a failing one does not count, even when it passes again.
  EXPECT_EQ(effective_length(lengths, {0.99, 0.86, 0.5, 0.9}, 0.856), 128);
  EXPECT_EQ(effective_length(lengths, {0.856, 0.2, 0.9, 0.9}, 0.856), 64);  // at the threshold
  EXPECT_EQ(effective_length(lengths, {0.85, 0.99, 0.99, 0.99}, 0.856), std::nullopt);
  EXPECT_EQ(effective_length(lengths, {0.6, 0.55, 0.4, 0.1}, 0.5), 128);
}

// Flags with accuracy `p` exactly (round(p·count) true, spread through the cell).
std::vector<bool> flags(double p, int count) {
  std::vector<bool> f(static_cast<std::size_t>(count), false);
  const int k = static_cast<int>(std::lround(p * count));
  for (int i = 0; i < k; ++i) f[static_cast<std::size_t>(i * count / k)] = true;
  return f;
}

double u_shape(double depth) {
  return depth_region(depth) == DepthRegion::kMiddle ? 0.3 : depth <= 10 || depth >= 90 ? 0.9 : 0.6;
}

// Pearson's chi-square of homogeneity across one length's depth cells (a 2 × depths table).
double chi_square_across_depths(const std::vector<DepthCell>& row) {
  double correct = 0, total = 0;
  for (const DepthCell& c : row) correct += double(c.correct), total += double(c.n);
  double x2 = 0;
  for (const DepthCell& c : row) {
    const double expect_ok = double(c.n) * correct / total;
    const double expect_wrong = double(c.n) - expect_ok;
    x2 += std::pow(double(c.correct) - expect_ok, 2) / expect_ok +
          std::pow(double(c.n - c.correct) - expect_wrong, 2) / expect_wrong;
  }
  return x2;
}
constexpr double kChi2Df10At999 = 29.588;  // the 0.999 quantile of chi-square with 10 df

TEST(DepthAccuracy, SyntheticUIsAU) {
  const DepthAccuracy r = measure_depth_accuracy(
      {64, 128}, kDepths, kRulerThreshold, [](int, double depth, std::size_t) {
        return DepthScore{flags(u_shape(depth), 100), 0.05};
      });
  for (const UVerdict& v : r.u_by_length) EXPECT_EQ(v.verdict, "U");
  EXPECT_EQ(r.u_pooled.verdict, "U");
  EXPECT_NEAR(r.u_pooled.middle.accuracy, 0.3, 1e-12);
  EXPECT_NEAR(r.u_pooled.start.accuracy, 0.9, 1e-12);
  EXPECT_NEAR(r.u_pooled.middle_minus_end.estimate, -0.6, 1e-12);
  EXPECT_EQ(r.u_pooled.middle.n, 2 * 5 * 100);  // two lengths, depths 30..70
  EXPECT_GT(chi_square_across_depths(r.cells[0]), kChi2Df10At999);
  EXPECT_EQ(r.effective_length, std::nullopt);  // mean accuracy 0.6
}

// The control that must fail: the same U-shaped flags, permuted across the depth cells of each
// length (labels no longer tied to depth), show no depth structure.
TEST(DepthAccuracy, DepthShuffledFlagsShowNoU) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const DepthAccuracy r = measure_depth_accuracy(
        {64, 128}, kDepths, kRulerThreshold, [seed](int length, double, std::size_t d) {
          std::vector<char> pooled;
          for (double depth : kDepths)
            for (bool f : flags(u_shape(depth), 100)) pooled.push_back(f ? 1 : 0);
          Rng rng = Rng::stream(seed, static_cast<std::uint64_t>(length));
          rng.shuffle(pooled);  // the same permutation for every cell of the length
          DepthScore s{{}, 0.05};
          for (std::size_t i = d * 100; i < d * 100 + 100; ++i) s.correct.push_back(pooled[i] != 0);
          return s;
        });
    for (std::size_t l = 0; l < r.lengths.size(); ++l) {
      EXPECT_EQ(r.u_by_length[l].verdict, "no U") << "seed " << seed;
      EXPECT_LT(chi_square_across_depths(r.cells[l]), kChi2Df10At999) << "seed " << seed;
    }
    EXPECT_EQ(r.u_pooled.verdict, "no U") << "seed " << seed;
  }
}

TEST(DepthAccuracy, PerfectScorer) {
  const DepthAccuracy r = measure_depth_accuracy({40, 80, 160}, {0, 12.5, 50, 100}, 0.9,
                                                 [](int length, double, std::size_t) {
                                                   return DepthScore{flags(1.0, 20), 1.0 / length};
                                                 });
  EXPECT_EQ(r.effective_length, 160);
  EXPECT_EQ(r.u_pooled.verdict, "no U");
  const DepthCell& cell = r.cells[1][1];  // 80 tokens, depth 12.5
  EXPECT_EQ(cell.accuracy, 1.0);
  EXPECT_EQ(cell.n, 20);
  EXPECT_EQ(cell.hi, 1.0);
  EXPECT_NEAR(cell.lo, 0.8389, 5e-5);  // Wilson 20/20
  EXPECT_NEAR(cell.chance, 1.0 / 80, 1e-15);
  EXPECT_EQ(depth_key(12.5), "12.5");
  EXPECT_EQ(depth_key(50), "50");
}

TEST(DepthAccuracy, MissingRegionIsUndetermined) {
  const DepthAccuracy r =
      measure_depth_accuracy({64}, {0, 50}, kRulerThreshold, [](int, double, std::size_t) {
        return DepthScore{flags(0.5, 10), 0.1};
      });
  EXPECT_EQ(r.u_pooled.verdict, "undetermined");
}

TEST(DepthAccuracy, RefusesBadInput) {
  auto none = [](int, double, std::size_t) { return DepthScore{}; };
  EXPECT_THROW(measure_depth_accuracy({64}, {-1}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({64}, {100.5}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({64}, {}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({64}, {50, 0, 50}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({}, {0}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({128, 64}, {0}, 0.5, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({64}, {0}, 0, none), std::invalid_argument);
  EXPECT_THROW(measure_depth_accuracy({64}, {0}, 1.01, none), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
