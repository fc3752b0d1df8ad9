// How a Jacobian-norm profile is computed (jacobian.h), as a name a command line can carry
// without libtorch: exact (every one-hot cotangent of y_q), hutchinson (k Gaussian probes) or
// autograd (D separate vector-Jacobian products, the slow reference).
#pragma once

#include <string>

namespace posbias {

enum class JacobianMethod { kExact, kHutchinson, kAutogradLoop };

JacobianMethod parse_jacobian_method(const std::string& name);  // exact | hutchinson | autograd
std::string to_string(JacobianMethod method);

}  // namespace posbias
