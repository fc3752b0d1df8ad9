// The U by its parts: shares of a profile against hand arithmetic, the region rules at the
// lengths where they change, and the U test on a synthetic U (verdict "U") and on the birth
// shape, a primacy decay with a one-token query spike (verdict "no U", the negative control).
#include "posbias/theory/profile_shares.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace posbias {
namespace {

std::vector<double> ramp(std::int64_t length) {  // p_j = j
  std::vector<double> p;
  for (std::int64_t j = 1; j <= length; ++j) p.push_back(static_cast<double>(j));
  return p;
}

TEST(ProfileShares, RampAgainstHandArithmetic) {
  // L = 50, p_j = j at position j − 1: total 50·51/2 = 1275. primacy, positions 0..7 (j 1..8):
  // 36; middle fifth of positions 0..48 is ⌊19.6⌋ .. ⌊29.4⌋ − 1 = 19..28 (j 20..29):
  // (20+29)·10/2 = 245; recency 41..48 (j 42..49): (42+49)·8/2 = 364; query 49 (j 50): 50.
  const ProfileShares s = profile_shares(ramp(50));
  EXPECT_EQ(s.region(ShareRegion::kMiddle).first, 19);
  EXPECT_EQ(s.region(ShareRegion::kMiddle).last, 28);
  EXPECT_EQ(s.region(ShareRegion::kRecency).first, 41);
  EXPECT_EQ(s.region(ShareRegion::kRecency).last, 48);
  EXPECT_EQ(s.region(ShareRegion::kQuery).first, 49);
  double worst = 0;
  const double expected[4] = {36.0 / 1275, 245.0 / 1275, 364.0 / 1275, 50.0 / 1275};
  for (ShareRegion r : kShareRegions)
    worst = std::max(worst, std::abs(s.of(r) - expected[static_cast<int>(r)]));
  EXPECT_LT(worst, 1e-15) << "worst share error " << worst;
  EXPECT_NEAR(s.per_position(ShareRegion::kMiddle), 24.5 / 1275, 1e-15);
  EXPECT_NEAR(s.per_position(ShareRegion::kQuery), 50.0 / 1275, 1e-15);
}

TEST(ProfileShares, RegionsAtTheLengthsWhereTheyChange) {
  // L = 17: both end windows fit (0..7, 8..15), the middle fifth (6..8) does not.
  auto r = share_regions(17);
  EXPECT_TRUE(r[0].present() && r[2].present() && r[3].present());
  EXPECT_EQ(r[2].first, 8);
  EXPECT_FALSE(r[1].present());
  // L = 16: the end windows would overlap.
  r = share_regions(16);
  EXPECT_FALSE(r[0].present() || r[2].present() || r[1].present());
  EXPECT_NE(r[0].absent.find("L >= 17"), std::string::npos) << r[0].absent;
  // L = 39: the middle fifth is 15..21, 7 positions.
  r = share_regions(39);
  EXPECT_TRUE(r[0].present() && r[2].present());
  EXPECT_FALSE(r[1].present());
  EXPECT_NE(r[1].absent.find("15..21"), std::string::npos) << r[1].absent;
  // L = 40: 15..22; L = 41: 16..23.
  r = share_regions(40);
  ASSERT_TRUE(r[1].present());
  EXPECT_EQ(r[1].first, 15);
  EXPECT_EQ(r[1].last, 22);
  EXPECT_EQ(r[2].first, 31);
  r = share_regions(41);
  ASSERT_TRUE(r[1].present());
  EXPECT_EQ(r[1].first, 16);
  EXPECT_EQ(r[1].last, 23);
  // From 40 on: 8 or more middle positions, strictly between the end windows.
  for (std::int64_t length = 40; length <= 200000; ++length) {
    r = share_regions(length);
    ASSERT_GE(r[1].size(), kEndWindow) << "L = " << length;
    ASSERT_GT(r[1].first, r[0].last) << "L = " << length;
    ASSERT_LT(r[1].last, r[2].first) << "L = " << length;
    ASSERT_EQ(r[2].last, length - 2);
  }
  EXPECT_THROW(share_regions(0), std::invalid_argument);
}

TEST(ProfileShares, ShortProfilesGetWhatTheyCanHave) {
  const ProfileShares one = profile_shares({2.0});
  EXPECT_DOUBLE_EQ(one.of(ShareRegion::kQuery), 1.0);
  EXPECT_FALSE(one.region(ShareRegion::kPrimacy).present());
  const SharesOverSeeds s = shares_over_seeds({ramp(39), ramp(39)});
  EXPECT_EQ(s.u.verdict, "not testable");
  EXPECT_NE(s.u.reason.find("middle"), std::string::npos) << s.u.reason;
  EXPECT_TRUE(s.share[1].values.empty());
  EXPECT_EQ(s.share[0].values.size(), 2u);
  EXPECT_THROW(profile_shares({1.0, -1.0}), std::invalid_argument);
  EXPECT_THROW(profile_shares({1.0, std::nan("")}), std::invalid_argument);
  EXPECT_THROW(profile_shares({}), std::invalid_argument);
}

// A U: high at both ends, low in the middle, over three seeds scaled differently per region.
std::vector<double> u_shape(std::int64_t length, double wobble) {
  std::vector<double> p;
  for (std::int64_t j = 1; j <= length; ++j) {
    const double x = (static_cast<double>(j) - 0.5 * static_cast<double>(length)) /
                     (0.5 * static_cast<double>(length));
    p.push_back((1 + wobble * static_cast<double>(j % 3)) * (0.05 + x * x));
  }
  return p;
}

TEST(UTest, ASyntheticUIsAU) {
  const SharesOverSeeds s =
      shares_over_seeds({u_shape(256, 0.0), u_shape(256, 0.1), u_shape(256, 0.2)});
  EXPECT_EQ(s.u.verdict, "U") << s.u.reason;
  EXPECT_LT(s.u.middle_vs_primacy.interval.high, 0);
  EXPECT_LT(s.u.middle_vs_recency.interval.high, 0);
  EXPECT_NE(s.u.basis.find("3 seeds"), std::string::npos);
}

TEST(UTest, APrimacyDecayWithAQuerySpikeIsNoU) {
  // The birth shape: p_j = 1/j before the query, a spike at the query, the minimum at L-1.
  std::vector<std::vector<double>> seeds;
  for (double spike : {5.0, 6.0, 7.0}) {
    std::vector<double> p;
    for (int j = 1; j < 256; ++j) p.push_back(1.0 / j);
    p.push_back(spike);
    seeds.push_back(p);
  }
  const SharesOverSeeds s = shares_over_seeds(seeds);
  EXPECT_EQ(s.u.verdict, "no U");
  // Middle below primacy, above recency: hand values, log10 of per-position sums.
  double mid = 0, pri = 0, rec = 0;
  for (int j = 103; j <= 153; ++j) mid += 1.0 / j;  // ⌊2·255/5⌋+1 = 103, ⌊3·255/5⌋ = 153
  for (int j = 1; j <= 8; ++j) pri += 1.0 / j;
  for (int j = 248; j <= 255; ++j) rec += 1.0 / j;
  EXPECT_NEAR(s.u.middle_vs_primacy.interval.mean, std::log10(mid / 51 / (pri / 8)), 1e-12);
  EXPECT_NEAR(s.u.middle_vs_recency.interval.mean, std::log10(mid / 51 / (rec / 8)), 1e-12);
  EXPECT_GT(s.u.middle_vs_recency.interval.low, 0);
  EXPECT_NE(s.u.reason.find("recency"), std::string::npos) << s.u.reason;
}

TEST(UTest, IntervalIsStudentTOverSeedsAndOneSeedSaysSo) {
  // Middle-vs-primacy values −1, −2, −6 (set through the primacy level): mean −3, s² = 7,
  // half width t₂·√(7/3) with t₂ = 4.30265272974946.
  std::vector<std::vector<double>> seeds;
  for (double d : {-1.0, -2.0, -6.0}) {
    std::vector<double> p(64, 1.0);
    for (int j = 0; j < 8; ++j) p[static_cast<std::size_t>(j)] = std::pow(10.0, -d);
    for (int j = 55; j < 63; ++j) p[static_cast<std::size_t>(j)] = 100.0;  // recency
    seeds.push_back(p);
  }
  const UTest t = shares_over_seeds(seeds).u;
  const double half = 4.30265272974946 * std::sqrt(7.0 / 3.0);
  EXPECT_NEAR(t.middle_vs_primacy.interval.mean, -3, 1e-12);
  EXPECT_NEAR(t.middle_vs_primacy.interval.high, -3 + half, 1e-9);
  EXPECT_EQ(t.verdict, "no U");  // −3 + 6.57 > 0: the interval reaches above 0
  const UTest one = shares_over_seeds({seeds.front()}).u;
  EXPECT_EQ(one.verdict, "U");  // −1 and −2 below 0, on one seed
  EXPECT_NE(one.basis.find("one seed"), std::string::npos) << one.basis;
  EXPECT_TRUE(std::isnan(one.middle_vs_primacy.interval.high));
}

TEST(UTest, PairedChangeIsLog10OfTheShareRatio) {
  const SharesOverSeeds a = shares_over_seeds({ramp(50), ramp(50)});
  std::vector<double> doubled_query = ramp(50);
  doubled_query.back() = 100;  // total 1325, query share 100/1325 against 50/1275
  const SharesOverSeeds b = shares_over_seeds({doubled_query, doubled_query});
  const auto change = share_change(a, b);
  EXPECT_NEAR(change[3].interval.mean, std::log10((100.0 / 1325) / (50.0 / 1275)), 1e-12);
  EXPECT_NEAR(change[1].values[1], std::log10((245.0 / 1325) / (245.0 / 1275)), 1e-12);
  EXPECT_THROW(share_change(a, shares_over_seeds({ramp(50)})), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
