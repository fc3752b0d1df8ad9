#include "posbias/arch/logn_scale.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace posbias {

void check_logn_scale(double s) {
  if (!(std::isfinite(s) && s > 0 && s <= kMaxLognScale)) {
    std::ostringstream out;
    out << "--logn-scale needs a scale s in (0, " << kMaxLognScale << "], got " << s;
    throw std::invalid_argument(out.str());
  }
}

std::vector<double> logn_factors(double s, std::int64_t length, std::int64_t window) {
  check_logn_scale(s);
  std::vector<double> f(static_cast<std::size_t>(std::max<std::int64_t>(length, 0)));
  for (std::int64_t i = 0; i < length; ++i) {
    const std::int64_t keys = window > 0 ? std::min(i + 1, window) : i + 1;
    f[static_cast<std::size_t>(i)] = s * std::log(static_cast<double>(keys));
  }
  return f;
}

void check_eval_logn_scale(const std::optional<double>& eval_scale,
                           const std::optional<double>& trained_scale) {
  if (!eval_scale) return;
  check_logn_scale(*eval_scale);
  if (trained_scale) {
    std::ostringstream out;
    out << "--logn-scale applies at evaluation to a run trained without it; this run was trained "
           "with --logn-scale "
        << *trained_scale << ", so its logits are already scaled";
    throw std::invalid_argument(out.str());
  }
}

}  // namespace posbias
