// Rollout: the influence row with a measured attention matrix per layer (docs/birth.md).
//
// Layer l maps the residual stream by N_l = (1-α_l) I + α_l A_l (optionally with per-position
// factors, below), A_l the layer's measured
// attention (head-averaged, lower-triangular, rows summing to 1, or less with a null sink,
// operator.h) and α_l the measured
// attention-branch strength. The row r = e_qᵀ N_H ⋯ N_1 (linear path sum: the protocol of
// attention rollout), or its quadrature counterpart (influence.h): paths through different
// layer sets add in quadrature. With a different A_l per layer the quadrature row needs the
// second moments C = E[tᵀt] of the path sum, updated per layer as
//   C ← (1-α_l)² C + α_l² A_lᵀ C A_l,   r_j = sqrt(C_jj),
// which for A_l = A reproduces influence.h's Σ_S w_S² (e_qᵀ A^|S|)² exactly. O(H·q³).
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/theory/influence.h"

namespace posbias {

struct RolloutSpec {
  std::int64_t length = 0;  // L
  std::int64_t query = 0;   // q in 1..L; 0 = L
  // attention[l]: layer l's L×L matrix, row-major (query i, key j), entries above the
  // diagonal 0; layers in model order (layer 0 reads the input embeddings).
  std::vector<std::vector<double>> attention;
  std::vector<double> alpha;  // α_l per layer, each in [0, 1]
  // Optional, [layer][j] > 0: the attention path that reads key j at layer l carries this
  // factor (N_l = (1-α_l) I + α_l A_l D_l, D_l = diag(key_scale[l])); empty = all 1.
  std::vector<std::vector<double>> key_scale;
  // Optional, [layer][i] > 0: every path at position i after layer l carries this factor
  // (the layer's per-position MLP: N_l = S_l ((1-α_l) I + α_l A_l D_l)); empty = all 1.
  std::vector<std::vector<double>> stay_scale;
  PathSum paths = PathSum::kLinear;

  // Throws std::invalid_argument naming the bad field (shapes, α, rows that sum to more than 1).
  void validate() const;
  std::int64_t query_position() const { return query == 0 ? length : query; }
};

// Largest q of a quadrature rollout (its O(q³) per layer stays within seconds).
inline constexpr std::int64_t kMaxQuadratureRolloutLength = 1024;

// Positions 1..q. Throws std::invalid_argument for a quadrature rollout past the limit.
std::vector<double> rollout_row(const RolloutSpec& spec);

}  // namespace posbias
