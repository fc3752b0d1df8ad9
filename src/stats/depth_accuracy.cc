#include "posbias/stats/depth_accuracy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "posbias/core/json_number.h"
#include "posbias/stats/wilson.h"

namespace posbias {
namespace {

// Pools cells: counts add, chance is the n-weighted mean.
struct Pool {
  std::int64_t correct = 0, n = 0;
  double chance_sum = 0;
  void add(const DepthCell& c) {
    correct += c.correct;
    n += c.n;
    chance_sum += c.chance * static_cast<double>(c.n);
  }
  DepthCell cell() const {
    return depth_cell(correct, n, n > 0 ? chance_sum / static_cast<double>(n) : kNaN);
  }
};

}  // namespace

void check_depth_accuracy_inputs(const std::vector<int>& lengths, const std::vector<double>& depths,
                                 double threshold) {
  if (lengths.empty()) throw std::invalid_argument("--lengths needs at least one length");
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (lengths[i] < 1 || (i > 0 && lengths[i] <= lengths[i - 1]))
      throw std::invalid_argument(
          fmt::format("--lengths must be positive and ascending without repeats, got {} after {}",
                      lengths[i], i > 0 ? lengths[i - 1] : 0));
  }
  if (depths.empty()) throw std::invalid_argument("--depths needs at least one depth");
  for (std::size_t i = 0; i < depths.size(); ++i) {
    const double d = depths[i];
    if (!(d >= 0 && d <= 100))
      throw std::invalid_argument(fmt::format("--depths must be percentages in 0..100, got {}", d));
    if (std::find(depths.begin(), depths.begin() + static_cast<std::ptrdiff_t>(i), d) !=
        depths.begin() + static_cast<std::ptrdiff_t>(i))
      throw std::invalid_argument(fmt::format("--depths gives {} twice; give each depth once", d));
  }
  if (!(threshold > 0 && threshold <= 1))
    throw std::invalid_argument(
        fmt::format("--effective-threshold must be in (0, 1], got {}", threshold));
}

DepthCell depth_cell(std::int64_t correct, std::int64_t n, double chance) {
  const Interval w = wilson_interval(correct, n);
  DepthCell c;
  c.correct = correct;
  c.n = n;
  c.accuracy = n > 0 ? static_cast<double>(correct) / static_cast<double>(n) : kNaN;
  c.lo = w.low;
  c.hi = w.high;
  c.chance = chance;
  return c;
}

Difference newcombe_difference(std::int64_t correct1, std::int64_t n1, std::int64_t correct2,
                               std::int64_t n2) {
  if (n1 == 0 || n2 == 0) return {kNaN, kNaN, kNaN};
  const double p1 = static_cast<double>(correct1) / static_cast<double>(n1);
  const double p2 = static_cast<double>(correct2) / static_cast<double>(n2);
  const Interval w1 = wilson_interval(correct1, n1), w2 = wilson_interval(correct2, n2);
  const double d = p1 - p2;
  return {d, d - std::hypot(p1 - w1.low, w2.high - p2), d + std::hypot(w1.high - p1, p2 - w2.low)};
}

DepthRegion depth_region(double depth) {
  if (depth >= 0 && depth <= 10) return DepthRegion::kStart;
  if (depth >= 30 && depth <= 70) return DepthRegion::kMiddle;
  if (depth >= 90 && depth <= 100) return DepthRegion::kEnd;
  return DepthRegion::kNone;
}

UVerdict u_verdict(const DepthCell& start, const DepthCell& middle, const DepthCell& end) {
  UVerdict v;
  v.start = start;
  v.middle = middle;
  v.end = end;
  v.middle_minus_start = newcombe_difference(middle.correct, middle.n, start.correct, start.n);
  v.middle_minus_end = newcombe_difference(middle.correct, middle.n, end.correct, end.n);
  if (start.n == 0 || middle.n == 0 || end.n == 0) {
    v.verdict = "undetermined";
  } else {
    v.verdict = v.middle_minus_start.hi < 0 && v.middle_minus_end.hi < 0 ? "U" : "no U";
  }
  return v;
}

std::optional<int> effective_length(const std::vector<int>& lengths,
                                    const std::vector<double>& mean_accuracy, double threshold) {
  std::optional<int> best;
  for (std::size_t i = 0; i < lengths.size() && i < mean_accuracy.size(); ++i) {
    if (!(mean_accuracy[i] >= threshold)) break;
    best = lengths[i];
  }
  return best;
}

void summarize_depth_accuracy(DepthAccuracy& r) {
  r.mean_accuracy.clear();
  r.u_by_length.clear();
  Pool all[3];
  for (const auto& row : r.cells) {
    double sum = 0;
    Pool region[3];
    for (std::size_t d = 0; d < row.size(); ++d) {
      sum += row[d].accuracy;
      const DepthRegion where = depth_region(r.depths[d]);
      if (where == DepthRegion::kNone) continue;
      region[static_cast<int>(where)].add(row[d]);
      all[static_cast<int>(where)].add(row[d]);
    }
    r.mean_accuracy.push_back(row.empty() ? kNaN : sum / static_cast<double>(row.size()));
    r.u_by_length.push_back(u_verdict(region[0].cell(), region[1].cell(), region[2].cell()));
  }
  r.effective_length = effective_length(r.lengths, r.mean_accuracy, r.threshold);
  r.u_pooled = u_verdict(all[0].cell(), all[1].cell(), all[2].cell());
}

DepthAccuracy measure_depth_accuracy(const std::vector<int>& lengths,
                                     const std::vector<double>& depths, double threshold,
                                     const DepthScorer& score,
                                     const std::function<void()>& after_cell) {
  check_depth_accuracy_inputs(lengths, depths, threshold);
  DepthAccuracy r;
  r.lengths = lengths;
  r.depths = depths;
  r.threshold = threshold;
  for (int length : lengths) {
    std::vector<DepthCell>& row = r.cells.emplace_back();
    for (std::size_t d = 0; d < depths.size(); ++d) {
      const DepthScore s = score(length, depths[d], d);
      std::int64_t correct = 0;
      for (bool ok : s.correct) correct += ok ? 1 : 0;
      row.push_back(depth_cell(correct, static_cast<std::int64_t>(s.correct.size()), s.chance));
      if (after_cell) after_cell();
    }
  }
  summarize_depth_accuracy(r);
  return r;
}

std::string depth_key(double depth) {
  if (depth == std::round(depth)) return fmt::format("{}", static_cast<long long>(depth));
  return fmt::format("{}", depth);
}

}  // namespace posbias
