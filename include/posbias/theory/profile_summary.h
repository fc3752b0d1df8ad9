// Shape statistics of one discrete influence row (keys j = 1..q, positions 0..q − 1,
// position_base.h): the quantities a researcher reads off a profile (primacy, dead zone, the
// query's own share). All magnitudes are log10, so nothing underflows.
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/theory/extended_real.h"

namespace posbias {

struct ProfileSummary {
  std::int64_t query = 0;               // q
  double log10_first = 0;               // r_1, the primacy end
  double log10_last = 0;                // r_q, the recency anchor
  double log10_middle = 0;              // r at ⌈q/2⌉
  std::int64_t dead_zone_position = 0;  // position j − 1 of argmin r_j over 1 < j < q (0: q < 3)
  double dead_zone_x = 0;               // that key's j / q
  double log10_dead_zone = 0;           // its value
  double epsilon = 0.05;                // primacy window, as a fraction of q
  double primacy_mass = 0;              // Σ r_j for j <= ε q
  double recency_mass = 0;              // r_q
  double total_mass = 0;                // Σ r_j (1 up to rounding: rows are stochastic)
  double log10_middle_to_ends = 0;      // r_mid / mean(r_1, r_q)
};

ProfileSummary summarize_profile(const std::vector<ExtReal>& row, double epsilon = 0.05);

// log10 of each entry's share of the row's sum (NaN for entries <= 0): profiles of different
// scale on one axis.
std::vector<double> unit_sum_log10(const std::vector<double>& row);

}  // namespace posbias
