// A power law y = a·x^b fitted by least squares on log y against log x, with the 95% Student-t
// interval of the exponent b (df = points − 2): how fast a gap, a cost or a curve decays or grows
// with n, and how sure the fit is of it.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace posbias {

struct PowerLawFit {
  double exponent = 0;       // b; NaN with fewer than 2 usable points
  double low = 0, high = 0;  // b ∓ t·se(b); NaN with fewer than 3 usable points
  double log_prefactor = 0;  // ln a
  std::int64_t points = 0;   // the points used: x in [from, to], x > 0 and y > 0
};

// Fits the (x, y) pairs whose x lies in [from, to]; pairs with x ≤ 0 or y ≤ 0 (or not finite)
// are skipped. std::invalid_argument when x and y differ in size.
PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y,
                          double from = 0, double to = INFINITY);

}  // namespace posbias
