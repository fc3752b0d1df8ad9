#include "posbias/stats/power_law_fit.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "posbias/stats/seed_interval.h"

namespace posbias {

PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y, double from,
                          double to) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_power_law: x and y differ in size");
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] >= from && x[i] <= to && x[i] > 0 && y[i] > 0)) continue;
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    lx.push_back(std::log(x[i]));
    ly.push_back(std::log(y[i]));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PowerLawFit f{nan, nan, nan, nan, static_cast<std::int64_t>(lx.size())};
  const double n = static_cast<double>(lx.size());
  if (lx.size() < 2) return f;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) mx += lx[i], my += ly[i];
  mx /= n, my /= n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
  }
  if (!(sxx > 0)) return f;  // one distinct x: no slope
  f.exponent = sxy / sxx;
  f.log_prefactor = my - f.exponent * mx;
  if (lx.size() < 3) return f;
  double sse = 0;
  for (std::size_t i = 0; i < lx.size(); ++i) {
    const double r = ly[i] - f.log_prefactor - f.exponent * lx[i];
    sse += r * r;
  }
  const auto df = static_cast<std::int64_t>(lx.size()) - 2;
  const double se = std::sqrt(sse / static_cast<double>(df) / sxx);
  const double t = t_quantile_975(df);
  f.low = f.exponent - t * se;
  f.high = f.exponent + t * se;
  return f;
}

}  // namespace posbias
