#include "posbias/theory/profile_shares.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "posbias/core/enum_names.h"
#include "posbias/core/json_number.h"

namespace posbias {
namespace {

// The shortest profile whose two end windows fit before the query without overlapping.
constexpr std::int64_t kMinEndsLength = 2 * kEndWindow + 1;  // 17
// From L = 40 on, the middle fifth always holds at least kEndWindow positions and meets neither
// end window (at L = 39 it holds 7: positions 15..21).
constexpr std::int64_t kMinMiddleLength = 40;

std::string position_text(std::int64_t first, std::int64_t last) {
  return "positions " + std::to_string(first) + ".." + std::to_string(last);
}

// log10(a / b), NaN unless both are > 0.
double log10_ratio(double a, double b) { return a > 0 && b > 0 ? std::log10(a / b) : kNaN; }

constexpr EnumNames<ShareRegion, kShareRegions.size()> kShareRegionNames{
    {{ShareRegion::kPrimacy, "primacy"},
     {ShareRegion::kMiddle, "middle"},
     {ShareRegion::kRecency, "recency"},
     {ShareRegion::kQuery, "query"}}};

}  // namespace

const char* to_string(ShareRegion region) {
  return name_of(kShareRegionNames, region).data();  // the table's names are literals
}

std::array<RegionSpan, 4> share_regions(std::int64_t length) {
  if (length < 1)
    throw std::invalid_argument("a profile needs at least 1 position (the query), got " +
                                std::to_string(length));
  const std::int64_t n = length - 1;  // positions before the query
  std::array<RegionSpan, 4> r;
  if (length >= kMinEndsLength) {
    r[0] = {0, kEndWindow - 1, ""};
    r[2] = {length - 1 - kEndWindow, length - 2, ""};
  } else {
    const std::string why = "needs L >= " + std::to_string(kMinEndsLength) +
                            " so that the two 8-position end windows before the query do not "
                            "overlap (L = " +
                            std::to_string(length) + ")";
    r[0] = {0, 0, why};
    r[2] = {0, 0, why};
  }
  if (length >= kMinMiddleLength) {
    r[1] = {2 * n / 5, 3 * n / 5 - 1, ""};
  } else {
    r[1] = {0, 0,
            "needs L >= " + std::to_string(kMinMiddleLength) +
                " so that the middle fifth of 0..L-2 holds at least 8 positions apart from the "
                "end windows (L = " +
                std::to_string(length) + ": " +
                (3 * n / 5 >= 2 * n / 5 + 1 ? position_text(2 * n / 5, 3 * n / 5 - 1)
                                            : std::string("no position")) +
                ")"};
  }
  r[3] = {length - 1, length - 1, ""};
  return r;
}

double ProfileShares::per_position(ShareRegion r) const {
  const RegionSpan& span = region(r);
  return span.present() ? of(r) / static_cast<double>(span.size()) : 0.0;
}

ProfileShares profile_shares(const std::vector<double>& profile) {
  ProfileShares s;
  s.length = static_cast<std::int64_t>(profile.size());
  s.regions = share_regions(s.length);
  double total = 0;
  for (std::size_t j = 0; j < profile.size(); ++j) {
    if (!std::isfinite(profile[j]) || profile[j] < 0)
      throw std::invalid_argument("profile entry at position " + std::to_string(j + 1) + " is " +
                                  std::to_string(profile[j]) + "; shares need finite entries >= 0");
    total += profile[j];
  }
  if (!(total > 0))
    throw std::invalid_argument("the profile sums to 0; shares need a positive sum");
  for (std::size_t k = 0; k < s.regions.size(); ++k) {
    const RegionSpan& span = s.regions[k];
    if (!span.present()) continue;
    double sum = 0;
    for (std::int64_t j = span.first; j <= span.last; ++j)
      sum += profile[static_cast<std::size_t>(j)];
    s.share[k] = sum / total;
  }
  return s;
}

UTest u_test(const std::vector<ProfileShares>& seeds) {
  if (seeds.empty()) throw std::invalid_argument("the U test needs at least one profile");
  for (const ProfileShares& s : seeds)
    if (s.length != seeds.front().length)
      throw std::invalid_argument("the U test needs profiles of one length (" +
                                  std::to_string(s.length) + " and " +
                                  std::to_string(seeds.front().length) + ")");
  UTest t;
  const ProfileShares& first = seeds.front();
  for (ShareRegion r : {ShareRegion::kMiddle, ShareRegion::kPrimacy, ShareRegion::kRecency}) {
    if (first.region(r).present()) continue;
    t.verdict = "not testable";
    t.basis = "none";
    t.reason = std::string("no ") + to_string(r) + " region: " + first.region(r).absent;
    return t;
  }
  std::vector<double> dp, dr;
  for (const ProfileShares& s : seeds) {
    const double middle = s.per_position(ShareRegion::kMiddle);
    dp.push_back(log10_ratio(middle, s.per_position(ShareRegion::kPrimacy)));
    dr.push_back(log10_ratio(middle, s.per_position(ShareRegion::kRecency)));
  }
  t.middle_vs_primacy = seed_statistic(std::move(dp));
  t.middle_vs_recency = seed_statistic(std::move(dr));
  const SeedInterval& p = t.middle_vs_primacy.interval;
  const SeedInterval& q = t.middle_vs_recency.interval;
  const std::int64_t n = std::min(p.n, q.n);
  if (n == 0) {
    t.verdict = "not testable";
    t.basis = "none";
    t.reason = "no seed has positive shares in the middle, primacy and recency regions";
    return t;
  }
  // The upper end the rule reads: the interval's with several seeds, the value with one.
  const double hp = n >= 2 ? p.high : p.mean, hq = n >= 2 ? q.high : q.mean;
  t.basis = n >= 2 ? "95% Student-t interval over " + std::to_string(n) + " seeds"
                   : "one seed: the verdict rests on its two values, with no interval";
  const bool below_primacy = hp < 0, below_recency = hq < 0;
  t.verdict = below_primacy && below_recency ? "U" : "no U";
  if (below_primacy && below_recency)
    t.reason = "the middle's per-position share is below both ends'";
  else if (!below_primacy && !below_recency)
    t.reason = "the middle's per-position share is not below either end's";
  else
    t.reason = std::string("the middle's per-position share is not below ") +
               (below_primacy ? "recency's" : "primacy's");
  return t;
}

SharesOverSeeds shares_over_seeds(const std::vector<std::vector<double>>& profiles) {
  if (profiles.empty()) throw std::invalid_argument("shares over seeds need at least one profile");
  std::vector<ProfileShares> seeds;
  for (const auto& p : profiles) seeds.push_back(profile_shares(p));
  SharesOverSeeds r;
  r.u = u_test(seeds);  // checks one length
  r.length = seeds.front().length;
  r.regions = seeds.front().regions;
  for (std::size_t k = 0; k < r.regions.size(); ++k) {
    if (!r.regions[k].present()) continue;
    std::vector<double> v;
    for (const ProfileShares& s : seeds) v.push_back(s.share[k]);
    r.share[k] = seed_statistic(std::move(v));
  }
  return r;
}

std::array<SeedStatistic, 4> share_change(const SharesOverSeeds& first,
                                          const SharesOverSeeds& last) {
  if (first.length != last.length || first.share[3].values.size() != last.share[3].values.size())
    throw std::invalid_argument(
        "a paired change needs the same seeds at one length in both steps (" +
        std::to_string(first.share[3].values.size()) + " profiles of " +
        std::to_string(first.length) + " positions against " +
        std::to_string(last.share[3].values.size()) + " of " + std::to_string(last.length) + ")");
  std::array<SeedStatistic, 4> out;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (!first.regions[k].present()) continue;
    std::vector<double> d;
    for (std::size_t s = 0; s < first.share[k].values.size(); ++s)
      d.push_back(log10_ratio(last.share[k].values[s], first.share[k].values[s]));
    out[k] = seed_statistic(std::move(d));
  }
  return out;
}

}  // namespace posbias
