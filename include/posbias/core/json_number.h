// A double as JSON: the number, or null when it is NaN or infinite (JSON has neither).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

namespace posbias {

inline nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace posbias
