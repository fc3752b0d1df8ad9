#include "posbias/theory/influence_method.h"

#include <stdexcept>

#include "posbias/core/enum_names.h"

namespace posbias {

namespace {

constexpr EnumNames<JacobianMethod, 3> kMethodNames{{{JacobianMethod::kExact, "exact"},
                                                     {JacobianMethod::kHutchinson, "hutchinson"},
                                                     {JacobianMethod::kAutogradLoop, "autograd"}}};
constexpr EnumNames<InfluenceTarget, 3> kTargetNames{{{InfluenceTarget::kHidden, "hidden"},
                                                      {InfluenceTarget::kLoss, "loss"},
                                                      {InfluenceTarget::kProb, "prob"}}};

}  // namespace

JacobianMethod parse_jacobian_method(const std::string& name) {
  return value_of(kMethodNames, name, "--method");
}

std::string to_string(JacobianMethod method) { return std::string(name_of(kMethodNames, method)); }

InfluenceTarget parse_influence_target(const std::string& name) {
  return value_of(kTargetNames, name, "--target");
}

std::string to_string(InfluenceTarget target) { return std::string(name_of(kTargetNames, target)); }

}  // namespace posbias
