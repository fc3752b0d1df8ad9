// The U by its parts: how an influence profile over positions 0..L−1 (L − 1 = the query)
// divides its total among four regions, and a test of the U that can answer "no".
//
// Regions (positions 0-based as everywhere, position_base.h; integer arithmetic):
//   primacy  0 .. 7
//   middle   ⌊2(L−1)/5⌋ .. ⌊3(L−1)/5⌋ − 1   (the middle fifth of the L − 1 positions 0..L−2)
//   recency  L−9 .. L−2                      (the 8 positions before the query)
//   query    L−1
// A region's share is its sum over the whole profile's sum (so the four need not add to 1: the
// positions between the regions hold the rest). The regions never overlap: a short profile gets
// the shares it can have and names the others with the reason (primacy and recency need L ≥ 17,
// the middle L ≥ 40, where it first holds as many positions as each end window).
//
// The U test compares per-position shares (share / region size) on a log10 scale, one value per
// seed: d_primacy = log10(middle / primacy) and d_recency = log10(middle / recency). The verdict
// is "U" only when both 95% Student-t intervals over seeds (seed_interval.h) lie below 0; with
// one seed there is no interval, and the verdict reads the two values themselves and says so.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "posbias/stats/seed_interval.h"

namespace posbias {

enum class ShareRegion { kPrimacy, kMiddle, kRecency, kQuery };
inline constexpr std::array<ShareRegion, 4> kShareRegions = {
    ShareRegion::kPrimacy, ShareRegion::kMiddle, ShareRegion::kRecency, ShareRegion::kQuery};
// primacy | middle | recency | query: the JSON keys.
const char* to_string(ShareRegion region);

// Positions in each end window (primacy and recency).
inline constexpr std::int64_t kEndWindow = 8;

struct RegionSpan {
  std::int64_t first = 0, last = 0;  // positions, inclusive; 0, 0 when absent
  std::string absent;                // why the profile cannot have it; empty when present
  bool present() const { return absent.empty(); }
  std::int64_t size() const { return present() ? last - first + 1 : 0; }
};

// The four regions of a profile of `length` >= 1 positions, in kShareRegions order
// (std::invalid_argument for length < 1).
std::array<RegionSpan, 4> share_regions(std::int64_t length);

struct ProfileShares {
  std::int64_t length = 0;
  std::array<RegionSpan, 4> regions;
  std::array<double, 4> share{};  // region sum / profile sum; 0 for an absent region
  const RegionSpan& region(ShareRegion r) const { return regions[static_cast<std::size_t>(r)]; }
  double of(ShareRegion r) const { return share[static_cast<std::size_t>(r)]; }
  // share / region size (0 for an absent region).
  double per_position(ShareRegion r) const;
};

// The shares of one profile (entries >= 0 and finite, sum > 0; std::invalid_argument naming the
// first bad entry otherwise).
ProfileShares profile_shares(const std::vector<double>& profile);

struct UTest {
  std::string verdict;  // "U", "no U", or "not testable" (a region is absent; see reason)
  std::string basis;    // how the verdict was reached (interval over n seeds, or one seed)
  std::string reason;   // why the verdict is what it is, in one sentence
  SeedStatistic middle_vs_primacy, middle_vs_recency;  // log10 per-position share ratios
};

// The U test over seeds' shares (one entry per seed, all of one length; std::invalid_argument
// for none or mixed lengths).
UTest u_test(const std::vector<ProfileShares>& seeds);

// Shares over seeds: per region, every seed's share and the interval; the U test.
struct SharesOverSeeds {
  std::int64_t length = 0;
  std::array<RegionSpan, 4> regions;
  std::array<SeedStatistic, 4> share;  // [region]
  UTest u;
  const RegionSpan& region(ShareRegion r) const { return regions[static_cast<std::size_t>(r)]; }
};
SharesOverSeeds shares_over_seeds(const std::vector<std::vector<double>>& profiles);

// The paired change of each region's log10 share from `first` to `last` (the same seeds in the
// same order, one length): per seed log10(share_last / share_first), with its interval. Absent
// regions get no values.
std::array<SeedStatistic, 4> share_change(const SharesOverSeeds& first,
                                          const SharesOverSeeds& last);

}  // namespace posbias
