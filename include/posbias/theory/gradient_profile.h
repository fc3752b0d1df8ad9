// What a loss that reads every output sends back to each input at initialization: the
// "geometric headwinds". With the influence operator M = Π_l ((1 − α_l) I + α_l A) (layer 1
// applied first; A the attention operator, Cesàro for causal attention), output i reaches
// input j ≤ i with weight M_ij, and next-token training reads every output. Two predictions of
// the gradient norm at input j, nothing fitted:
//   column_sum      Σ_{i ≥ j} M_ij            cotangents at the outputs aligned (coherent);
//   root_sum_square sqrt(Σ_{i ≥ j} M_ij²)    independent cotangents of equal size, as a
//                                              loss at random initialization gives them.
// Both fall towards the late positions (fewer outputs read them), against the single-output
// influence row, which rises at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/theory/operator.h"

namespace posbias {

struct GradientProfile {
  std::vector<double> column_sum, root_sum_square;  // positions 1..L
};

// Dense, O(H·L³): length at most kMaxGradientProfileLength (throws std::invalid_argument).
constexpr std::int64_t kMaxGradientProfileLength = 2048;
GradientProfile gradient_profile(std::int64_t length, const std::vector<double>& alpha,
                                 const AttentionOperator& op);

}  // namespace posbias
