// The Wilson score interval for a binomial proportion: the confidence interval the LLM
// harness and eval by depth report with every accuracy. Unlike the normal approximation it stays
// inside [0, 1] and is sensible at 0 or n successes and for small n.
#pragma once

#include <cstdint>

#include "posbias/stats/interval.h"

namespace posbias {

// successes of n trials at confidence z standard deviations (1.959964 = 95%). n = 0 gives
// [0, 1]. Throws std::invalid_argument for successes outside 0..n or z <= 0.
Interval wilson_interval(std::int64_t successes, std::int64_t n, double z = 1.959963984540054);

}  // namespace posbias
