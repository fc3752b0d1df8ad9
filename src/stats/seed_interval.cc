#include "posbias/stats/seed_interval.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace posbias {
namespace {

// P(|T| < t) for Student's t with integer df (Abramowitz & Stegun 26.7.3 and 26.7.4):
// with θ = atan(t/√df), a finite sum of powers of cos θ.
double two_sided_cdf(double t, std::int64_t df) {
  const double theta = std::atan(t / std::sqrt(static_cast<double>(df)));
  const double c2 = std::cos(theta) * std::cos(theta), s = std::sin(theta);
  if (df % 2 == 0) {
    double term = 1, sum = 1;
    for (std::int64_t k = 2; k <= df - 2; k += 2) {
      term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
      sum += term;
    }
    return s * sum;
  }
  if (df == 1) return 2 * theta / std::numbers::pi;
  double term = std::cos(theta), sum = term;
  for (std::int64_t k = 3; k <= df - 2; k += 2) {
    term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
    sum += term;
  }
  return 2 / std::numbers::pi * (theta + s * sum);
}

}  // namespace

double t_quantile_975(std::int64_t df) {
  if (df < 1) throw std::invalid_argument("t_quantile_975: df must be >= 1");
  // Beyond 10^5 degrees of freedom the normal quantile is exact to 1e-5 and the series long.
  if (df > 100000) return 1.959963984540054;
  double lo = 0, hi = 20;
  while (two_sided_cdf(hi, df) < 0.95) hi *= 2;  // df = 1 needs 12.7, larger df less
  while (hi - lo > 1e-13 * hi) {
    const double mid = (lo + hi) / 2;
    (two_sided_cdf(mid, df) < 0.95 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

SeedInterval seed_interval(const std::vector<double>& values) {
  SeedInterval r;
  double sum = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    sum += v;
    ++r.n;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (r.n == 0) return {nan, nan, nan, 0};
  r.mean = sum / static_cast<double>(r.n);
  if (r.n < 2) {
    r.low = r.high = nan;
    return r;
  }
  double squares = 0;
  for (double v : values)
    if (std::isfinite(v)) squares += (v - r.mean) * (v - r.mean);
  const double half = t_quantile_975(r.n - 1) *
                      std::sqrt(squares / static_cast<double>(r.n - 1) / static_cast<double>(r.n));
  r.low = r.mean - half;
  r.high = r.mean + half;
  return r;
}

SeedStatistic seed_statistic(std::vector<double> values) {
  SeedStatistic s;
  s.interval = seed_interval(values);
  s.values = std::move(values);
  return s;
}

}  // namespace posbias
