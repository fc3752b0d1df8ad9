#include "posbias/theory/operator.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {

void AttentionOperator::validate() const {
  if (window < 0) {
    throw std::invalid_argument("window must be >= 1 keys (or 0 for none), got " +
                                std::to_string(window));
  }
  for (double m : alibi_slopes) {
    if (!std::isfinite(m) || m < 0.0) {
      throw std::invalid_argument("ALiBi slope must be a finite number >= 0, got " +
                                  std::to_string(m));
    }
  }
  if (!(sink >= 0.0 && sink <= 1.0)) {
    throw std::invalid_argument("sink share must be in [0, 1], got " + std::to_string(sink));
  }
  if (!(std::isfinite(null_sink_weight) && null_sink_weight >= 0.0)) {
    throw std::invalid_argument("null-sink weight e^b must be finite and >= 0, got " +
                                std::to_string(null_sink_weight));
  }
}

bool AttentionOperator::is_cesaro() const {
  if (window != 0 || sink != 0.0 || null_sink_weight != 0.0) return false;
  for (double m : alibi_slopes) {
    if (m != 0.0) return false;
  }
  return true;
}

std::string AttentionOperator::describe() const {
  std::string out;
  auto add = [&out](const std::string& s) { out += out.empty() ? s : "," + s; };
  if (window > 0) add("window=" + std::to_string(window));
  if (!alibi_slopes.empty()) {
    if (alibi_slopes.size() == 1) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "alibi=%g", alibi_slopes[0]);
      add(buf);
    } else {
      add("alibi(" + std::to_string(alibi_slopes.size()) + " heads)");
    }
  }
  if (sink > 0.0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "sink=%g", sink);
    add(buf);
  }
  if (null_sink_weight > 0.0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "null_sink=%g", std::log(null_sink_weight));
    add(buf);
  }
  return out.empty() ? "cesaro" : out;
}

std::vector<double> AttentionOperator::dense_row(std::int64_t i) const {
  std::vector<double> row(static_cast<std::size_t>(i), 0.0);
  const std::vector<double> slopes = alibi_slopes.empty() ? std::vector<double>{0.0} : alibi_slopes;
  const std::int64_t first = (window > 0 && i - window + 1 > 1) ? i - window + 1 : 1;
  for (double m : slopes) {
    double z = null_sink_weight;
    for (std::int64_t j = first; j <= i; ++j) z += std::exp(-m * static_cast<double>(i - j));
    for (std::int64_t j = first; j <= i; ++j) {
      row[j - 1] +=
          std::exp(-m * static_cast<double>(i - j)) / z / static_cast<double>(slopes.size());
    }
  }
  for (double& v : row) v *= (1.0 - sink);
  row[0] += sink;
  return row;
}

}  // namespace posbias
