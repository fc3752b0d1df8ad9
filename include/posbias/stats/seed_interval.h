// The 95% Student-t interval of a mean over a few seeds: with 3 training seeds a bootstrap has
// only 10 distinct resamples, so intervals over seeds use the t distribution instead.
#pragma once

#include <cstdint>
#include <vector>

namespace posbias {

struct SeedInterval {
  double mean = 0;
  double low = 0, high = 0;  // mean ∓ t·s/√n; NaN when fewer than 2 finite values
  std::int64_t n = 0;        // the finite values used
};

// The 97.5% quantile of Student's t with `df` >= 1 degrees of freedom, from the exact
// finite-series CDF for integer df (bisection to 1e-13); std::invalid_argument for df < 1.
double t_quantile_975(std::int64_t df);
// Mean and 95% t interval of the finite values (non-finite ones are skipped).
SeedInterval seed_interval(const std::vector<double>& values);

// A statistic over seeds: each seed's value and the mean with its 95% t interval.
struct SeedStatistic {
  std::vector<double> values;  // one per seed (NaN where a seed has none)
  SeedInterval interval;       // over the finite values
};
SeedStatistic seed_statistic(std::vector<double> values);

}  // namespace posbias
