// A double as JSON: the number, or null when it is NaN or infinite (JSON has neither).
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace posbias {

// A value not measured: number_or_null writes it as null.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace posbias
