// How the theory's α_l (N_l = (1-α_l) I + α_l A) is read off a model without fitting, as a
// name a command line and a result file carry without libtorch (model/branch_strength.h
// computes each; docs/birth.md):
//  - jacobian: α̂ = g/(s+g), the attention branch's value-path gain g against the identity
//    path's s;
//  - forward: ml-uhh's λ = mean over positions of ‖a_j‖ / (‖x_j‖ + ‖a_j‖);
//  - positions: the jacobian α̂ with each position's own key and MLP gains.
// A record holds the enum (its codec: theory_codecs.h).
#pragma once

#include <string>

namespace posbias {

enum class AlphaEstimator { kJacobian, kForward, kPositions };
AlphaEstimator parse_alpha_estimator(const std::string& name);  // jacobian | forward | positions
std::string to_string(AlphaEstimator estimator);

// The Gaussian probes per layer behind the positions estimator's MLP gains, unless a caller asks
// for another count (`birth --stay-probes`): each estimate E‖vᵀT‖² = ‖T‖²_F averages this many.
inline constexpr int kStayProbes = 8;

}  // namespace posbias
