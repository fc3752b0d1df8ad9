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

}  // namespace posbias
