#include "posbias/theory/alpha_estimator.h"

#include "posbias/core/enum_names.h"

namespace posbias {
namespace {

constexpr EnumNames<AlphaEstimator, 3> kAlphaEstimatorNames{
    {{AlphaEstimator::kJacobian, "jacobian"},
     {AlphaEstimator::kForward, "forward"},
     {AlphaEstimator::kPositions, "positions"}}};

}  // namespace

AlphaEstimator parse_alpha_estimator(const std::string& name) {
  return value_of(kAlphaEstimatorNames, name, "--alpha-estimator");
}

std::string to_string(AlphaEstimator e) { return std::string(name_of(kAlphaEstimatorNames, e)); }

}  // namespace posbias
