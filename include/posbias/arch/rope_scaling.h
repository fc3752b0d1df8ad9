// Inference-time RoPE scaling (`eval --rope-scaling pi:F|ntk:F`): a model trained with rotary
// positions evaluated with its rotations changed, no retraining. Pair k = 0..d/2−1 of a head's
// d rotary dims turns by angle(p) = p · θ^(−2k/d) at position p (θ = rope_theta); a scaling
// makes that
//   pi:F   position interpolation (Chen et al. 2023; Hugging Face's rope_scaling "linear"):
//          positions divided by F, angle(p) = p / F · θ^(−2k/d);
//   ntk:F  NTK-aware scaling (the static recipe as first posted): the base raised to
//          θ' = θ · F^(d/(d−2)), angle(p) = p · θ'^(−2k/d); pair 0 keeps its angle, the slowest
//          pair's is divided by F. Hugging Face's "dynamic" type is this base change with F
//          replaced by F·L/L_train − (F − 1) past the training length; here F is fixed.
// F = 1 leaves every angle as it is, bit for bit. No libtorch here.
#pragma once

#include <cstdint>
#include <string>

namespace posbias {

enum class RopeScalingKind { kPi, kNtk };

struct RopeScaling {
  RopeScalingKind kind = RopeScalingKind::kPi;
  double factor = 1.0;  // F > 0
};

std::string to_string(RopeScalingKind kind);  // "pi" | "ntk"
RopeScalingKind parse_rope_scaling_kind(const std::string& name);
std::string to_string(const RopeScaling& scaling);  // "pi:2", "ntk:0.5"
// "pi:F" or "ntk:F": throws std::invalid_argument in one line naming --rope-scaling for an
// unknown kind, a missing ':', F not a finite number, or F <= 0.
RopeScaling parse_rope_scaling(const std::string& text);
// F must be finite and > 0 (std::invalid_argument otherwise).
void check_rope_scaling(const RopeScaling& scaling);

// What a scaling does to a model with base `theta` and `rotary_dims` rotary dims per head: the
// base the inverse frequencies θ^(−2k/d) are taken of, and the number each position is divided
// by. ntk needs d >= 4 (at d = 2 its exponent d/(d−2) has no value; std::invalid_argument).
struct RotaryScaled {
  double theta = 10000.0;
  double position_divisor = 1.0;
};
RotaryScaled scaled_rotary(const RopeScaling& scaling, double theta, std::int64_t rotary_dims);

}  // namespace posbias
