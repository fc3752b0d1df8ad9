#include "posbias/theory/profile_summary.h"

#include <cmath>
#include <stdexcept>

namespace posbias {

ProfileSummary summarize_profile(const std::vector<ExtReal>& row, double epsilon) {
  if (row.empty()) throw std::invalid_argument("cannot summarize an empty profile");
  if (!(epsilon > 0.0 && epsilon <= 1.0)) {
    throw std::invalid_argument("epsilon must be in (0, 1], got " + std::to_string(epsilon));
  }
  ProfileSummary s;
  const auto q = static_cast<std::int64_t>(row.size());
  s.query = q;
  s.epsilon = epsilon;
  s.log10_first = row.front().log10();
  s.log10_last = row.back().log10();
  const std::int64_t mid = (q + 1) / 2;
  s.log10_middle = row[mid - 1].log10();
  if (q >= 3) {
    std::int64_t best = 2;
    for (std::int64_t j = 3; j < q; ++j) {
      if (row[j - 1] < row[best - 1]) best = j;
    }
    s.dead_zone_position = best - 1;
    s.dead_zone_x = static_cast<double>(best) / static_cast<double>(q);
    s.log10_dead_zone = row[best - 1].log10();
  }
  CompensatedSum<ExtReal> primacy, total;
  const auto cutoff = static_cast<std::int64_t>(std::floor(epsilon * static_cast<double>(q)));
  for (std::int64_t j = 1; j <= q; ++j) {
    total.add(row[j - 1]);
    if (j <= cutoff) primacy.add(row[j - 1]);
  }
  s.primacy_mass = primacy.value().to_double();
  s.total_mass = total.value().to_double();
  s.recency_mass = row.back().to_double();
  const ExtReal ends = (row.front() + row.back()) * 0.5;
  s.log10_middle_to_ends = row[mid - 1].log10() - ends.log10();
  return s;
}

std::vector<double> unit_sum_log10(const std::vector<double>& row) {
  double total = 0;
  for (double x : row) total += x;
  std::vector<double> out;
  out.reserve(row.size());
  for (double x : row) out.push_back(x > 0 ? std::log10(x / total) : std::nan(""));
  return out;
}

}  // namespace posbias
