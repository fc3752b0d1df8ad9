// The seed bootstrap shared by the fits and the shape comparisons: resample the seeds'
// profiles with replacement, recompute a statistic, take the 2.5% and 97.5% percentiles.
#pragma once

#include <random>
#include <vector>

#include "posbias/stats/interval.h"

namespace posbias {

// The percentile interval [2.5%, 97.5%] of the values (linear interpolation); NaN bounds if
// empty.
Interval percentile_interval(std::vector<double> values);
// The sum of seeds.size() rows drawn with replacement (sums rank like means).
std::vector<double> resampled_sum(const std::vector<std::vector<double>>& seeds,
                                  std::mt19937_64& rng);

}  // namespace posbias
