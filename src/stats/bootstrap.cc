#include "posbias/stats/bootstrap.h"

#include <algorithm>
#include <limits>

namespace posbias {

Interval percentile_interval(std::vector<double> v) {
  if (v.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan};
  }
  std::sort(v.begin(), v.end());
  auto at = [&](double p) {
    const double pos = p * static_cast<double>(v.size() - 1);
    const auto i = static_cast<std::size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  };
  return {at(0.025), at(0.975)};
}

std::vector<double> resampled_sum(const std::vector<std::vector<double>>& seeds,
                                  std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, seeds.size() - 1);
  std::vector<double> sum(seeds.front().size(), 0.0);
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    const auto& row = seeds[pick(rng)];
    for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += row[j];
  }
  return sum;
}

}  // namespace posbias
