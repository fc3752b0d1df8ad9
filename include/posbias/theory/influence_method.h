// How a measured influence profile is computed and on what, as names a command line and a
// result file carry without libtorch (jacobian/jacobian.h measures; `birth` and `seeds` read
// the names back; a record holds the enums, their codecs in theory_codecs.h).
//
// The method: exact (every one-hot cotangent of y_q), hutchinson (k Gaussian probes) or
// autograd (D separate vector-Jacobian products, the slow reference).
#pragma once

#include <string>

namespace posbias {

enum class JacobianMethod { kExact, kHutchinson, kAutogradLoop };

JacobianMethod parse_jacobian_method(const std::string& name);  // exact | hutchinson | autograd
std::string to_string(JacobianMethod method);

// What the influence is measured on: the final normed hidden state at the query (the theory's
// y_q, p_j = ‖∂y_q/∂x_j‖_F), the next-token loss at the query (p_j = ‖∂ℓ_q/∂x_j‖₂), or the
// top-1 probability at the query (p_j = ‖∂ max softmax(logits_q)/∂x_j‖₂, ml-uhh/position-bias's
// scalar target). The scalar targets are exact from one backward whatever the method.
enum class InfluenceTarget { kHidden, kLoss, kProb };
InfluenceTarget parse_influence_target(const std::string& name);  // hidden | loss | prob
std::string to_string(InfluenceTarget target);

}  // namespace posbias
