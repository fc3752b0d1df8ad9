#include "posbias/arch/rope_scaling.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace posbias {

std::string to_string(RopeScalingKind kind) { return kind == RopeScalingKind::kPi ? "pi" : "ntk"; }

RopeScalingKind parse_rope_scaling_kind(const std::string& name) {
  if (name == "pi") return RopeScalingKind::kPi;
  if (name == "ntk") return RopeScalingKind::kNtk;
  throw std::invalid_argument(
      "--rope-scaling kind must be pi (position interpolation) or ntk "
      "(NTK-aware), got '" +
      name + "'");
}

std::string to_string(const RopeScaling& scaling) {
  std::ostringstream out;
  out.precision(17);
  out << to_string(scaling.kind) << ":" << scaling.factor;
  return out.str();
}

void check_rope_scaling(const RopeScaling& scaling) {
  if (!(std::isfinite(scaling.factor) && scaling.factor > 0)) {
    std::ostringstream out;
    out << "--rope-scaling needs a factor F > 0, got " << scaling.factor;
    throw std::invalid_argument(out.str());
  }
}

RopeScaling parse_rope_scaling(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("--rope-scaling must be pi:F or ntk:F (F > 0), got '" + text + "'");
  RopeScaling s;
  s.kind = parse_rope_scaling_kind(text.substr(0, colon));
  const std::string number = text.substr(colon + 1);
  char* end = nullptr;
  errno = 0;
  s.factor = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || errno == ERANGE ||
      !std::isfinite(s.factor))
    throw std::invalid_argument("--rope-scaling factor must be a number F > 0, got '" + number +
                                "'");
  check_rope_scaling(s);
  return s;
}

RotaryScaled scaled_rotary(const RopeScaling& scaling, double theta, std::int64_t rotary_dims) {
  check_rope_scaling(scaling);
  if (scaling.kind == RopeScalingKind::kPi) return {theta, scaling.factor};
  if (rotary_dims < 4)
    throw std::invalid_argument(
        "--rope-scaling ntk needs at least 4 rotary dims per head (its base exponent is "
        "d/(d-2)), this model rotates " +
        std::to_string(rotary_dims));
  const double d = static_cast<double>(rotary_dims);
  return {theta * std::pow(scaling.factor, d / (d - 2.0)), 1.0};
}

}  // namespace posbias
