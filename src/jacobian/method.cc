#include "posbias/jacobian/method.h"

#include <stdexcept>

namespace posbias {

JacobianMethod parse_jacobian_method(const std::string& name) {
  if (name == "exact") return JacobianMethod::kExact;
  if (name == "hutchinson") return JacobianMethod::kHutchinson;
  if (name == "autograd") return JacobianMethod::kAutogradLoop;
  throw std::invalid_argument("unknown --method '" + name +
                              "' (use exact, hutchinson or autograd)");
}

std::string to_string(JacobianMethod method) {
  switch (method) {
    case JacobianMethod::kExact:
      return "exact";
    case JacobianMethod::kHutchinson:
      return "hutchinson";
    case JacobianMethod::kAutogradLoop:
      return "autograd";
  }
  return "unknown";
}

InfluenceTarget parse_influence_target(const std::string& name) {
  if (name == "hidden") return InfluenceTarget::kHidden;
  if (name == "loss") return InfluenceTarget::kLoss;
  if (name == "prob") return InfluenceTarget::kProb;
  throw std::invalid_argument("unknown --target '" + name.substr(0, 40) +
                              "' (use hidden, loss or prob)");
}

std::string to_string(InfluenceTarget target) {
  switch (target) {
    case InfluenceTarget::kHidden:
      return "hidden";
    case InfluenceTarget::kLoss:
      return "loss";
    case InfluenceTarget::kProb:
      return "prob";
  }
  return "unknown";
}

}  // namespace posbias
