// How well a predicted influence profile matches a measured one in shape (docs/birth.md).
//
// Both profiles are normalized to unit sum over every position 1..L, the query q = L (the
// recency end) included, so a prediction with no gain can be scored as it is. Statistics:
// median and max over positions of |log10(measured/predicted)|, W1 between the two as
// distributions over positions divided by L-1 (0: same, 1: all mass at opposite ends), the
// argmin positions, the recency ratio p_L/p_mid and the primacy ratio p_1/p_mid (mid =
// ⌈L/2⌉). Intervals: 95% percentile bootstrap over seeds (the prediction held fixed).
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/stats/bootstrap.h"
#include "posbias/theory/fit.h"

namespace posbias {

struct ShapeMetrics {
  double median_abs_log10_error = 0, max_abs_log10_error = 0;
  double w1 = 0;                                           // / (L-1)
  std::int64_t argmin_measured = 0, argmin_predicted = 0;  // positions (position_base.h)
  double recency_measured = 0, recency_predicted = 0;      // p_L / p_mid
  double primacy_measured = 0, primacy_predicted = 0;      // p_1 / p_mid
};

struct ShapeComparison {
  ShapeMetrics at_mean;  // the seed mean against the prediction
  Interval median_abs_log10_error, max_abs_log10_error, w1, argmin_measured, recency_measured,
      primacy_measured;
};

// Throws std::invalid_argument when the lengths differ or a value is not finite and > 0.
ShapeMetrics shape_metrics(const std::vector<double>& measured,
                           const std::vector<double>& predicted);
ShapeComparison compare_shape(const MeasuredProfile& measured, const std::vector<double>& predicted,
                              int bootstrap, std::uint64_t seed);
// Unit-sum copy of a positive profile.
std::vector<double> unit_sum(const std::vector<double>& profile);

}  // namespace posbias
