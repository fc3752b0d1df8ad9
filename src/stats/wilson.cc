#include "posbias/stats/wilson.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {

Interval wilson_interval(std::int64_t successes, std::int64_t n, double z) {
  if (n < 0 || successes < 0 || successes > n) {
    throw std::invalid_argument("wilson_interval: " + std::to_string(successes) + " successes of " +
                                std::to_string(n) + " trials");
  }
  if (!(z > 0) || !std::isfinite(z)) throw std::invalid_argument("wilson_interval: z must be > 0");
  if (n == 0) return {0.0, 1.0};
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(successes) / nn;
  const double z2 = z * z;
  const double denom = 1 + z2 / nn;
  const double center = (p + z2 / (2 * nn)) / denom;
  const double half = z / denom * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  // The bounds are exactly 0 at no successes and 1 at all; clamp rounding at the ends.
  Interval r{std::max(0.0, center - half), std::min(1.0, center + half)};
  if (successes == 0) r.low = 0;
  if (successes == n) r.high = 1;
  return r;
}

}  // namespace posbias
