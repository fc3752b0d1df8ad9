// The theory's enums as values of a field table (core/field_table.h), written and read by their
// names from their one name table; an unknown name is refused listing the names:
//   "unknown --paths 'quad' (use linear or quadrature); did you mean 'quadrature'?"
// PathSum (influence.h), AlphaEstimator (alpha_estimator.h), JacobianMethod and
// InfluenceTarget (influence_method.h).
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/theory/alpha_estimator.h"
#include "posbias/theory/influence.h"
#include "posbias/theory/influence_method.h"

namespace posbias {

struct PathSumNames {
  static std::string name(PathSum p) { return to_string(p); }
  static PathSum parse(const std::string& s) { return parse_path_sum(s); }
};
struct AlphaEstimatorNames {
  static std::string name(AlphaEstimator e) { return to_string(e); }
  static AlphaEstimator parse(const std::string& s) { return parse_alpha_estimator(s); }
};
struct JacobianMethodNames {
  static std::string name(JacobianMethod m) { return to_string(m); }
  static JacobianMethod parse(const std::string& s) { return parse_jacobian_method(s); }
};
struct InfluenceTargetNames {
  static std::string name(InfluenceTarget t) { return to_string(t); }
  static InfluenceTarget parse(const std::string& s) { return parse_influence_target(s); }
};

template <>
struct FieldCodec<PathSum> : EnumCodec<PathSum, PathSumNames> {};
template <>
struct FieldCodec<AlphaEstimator> : EnumCodec<AlphaEstimator, AlphaEstimatorNames> {};
template <>
struct FieldCodec<JacobianMethod> : EnumCodec<JacobianMethod, JacobianMethodNames> {};
template <>
struct FieldCodec<InfluenceTarget> : EnumCodec<InfluenceTarget, InfluenceTargetNames> {};

}  // namespace posbias
