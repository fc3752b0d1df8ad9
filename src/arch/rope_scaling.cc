#include "posbias/arch/rope_scaling.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "posbias/core/enum_names.h"
#include "posbias/core/parse.h"

namespace posbias {
namespace {

constexpr EnumNames<RopeScalingKind, 2> kRopeScalingKindNames{
    {{RopeScalingKind::kPi, "pi"}, {RopeScalingKind::kNtk, "ntk"}}};

}  // namespace

std::string to_string(RopeScalingKind kind) {
  return std::string(name_of(kRopeScalingKindNames, kind));
}

RopeScalingKind parse_rope_scaling_kind(const std::string& name) {
  return value_of(kRopeScalingKindNames, name, "--rope-scaling kind");
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
    throw std::invalid_argument("--rope-scaling must be pi:F or ntk:F (F > 0), got '" +
                                text.substr(0, 60) + "'");
  RopeScaling s;
  s.kind = parse_rope_scaling_kind(text.substr(0, colon));
  s.factor = parse_number(text.substr(colon + 1), "--rope-scaling factor");
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
