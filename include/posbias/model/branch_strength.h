// The attention branch's strength per layer, read off one forward pass (docs/birth.md), and
// the layer's head-averaged attention: what the no-fit theory and the rollout need.
//
// Two estimators of the theory's α_l (N_l = (1-α_l) I + α_l A):
//  - jacobian: α̂ = g/(s+g). g² = mean over positions j of ‖V·J_norm(x_j)‖²_F / D, the gain
//    of the attention branch's value path (V = Σ_h W_O,h W_V,kv(h), J_norm the first norm's
//    Jacobian at x_j) relative to the identity path; the score path is ignored (attention is
//    uniform at init). s = 1 for sequential blocks, whose MLP multiplies both paths alike;
//    for parallel (GPT-J) blocks the MLP sits beside the identity: s² = 1 + ‖J_mlp·J_norm‖²_F/D
//    (kStayProbes Gaussian probes per position, or the caller's count).
//  - forward: ml-uhh's λ = mean over positions of ‖a_j‖ / (‖x_j‖ + ‖a_j‖), a the attention
//    branch's output and x the layer input.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/theory/alpha_estimator.h"

namespace posbias {

// The positions estimator (AlphaEstimator::kPositions, theory/alpha_estimator.h): the jacobian
// α̂, with each key position's own gain g_{l,j}/ḡ_l on the path that reads it and each
// position's own MLP gain s_{l,i}/s̄_l on every path through it
// (N_l = S_l ((1-α̂_l) I + α̂_l A G_l), S and G diagonal); the per-layer estimators average
// both away. Positions differ because the norms see different residual norms: position 0's
// attention output is never averaged, so its stream grows fastest.
struct BranchStrength {
  std::vector<double> jacobian;               // α̂_l per layer
  std::vector<double> forward;                // λ_l per layer
  std::vector<std::vector<double>> key_gain;  // [layer][j]: g_{l,j} / ḡ_l, ḡ² = mean_j g²
  // [layer][i]: s_{l,i} / s̄_l, s² = ‖T_i‖²_F / D for the MLP half T_i = I + J_mlp·J_norm2 of a
  // sequential block at position i (Gaussian probes: a Monte Carlo estimate); all 1 for
  // parallel blocks, whose MLP sits beside the identity path (s enters their α̂ instead).
  std::vector<std::vector<double>> stay_gain;
  const std::vector<double>& of(AlphaEstimator e) const {
    return e == AlphaEstimator::kForward ? forward : jacobian;
  }
};

// From the cache of one forward (batch 0). probe_seed seeds the MLP probes: layer l's from
// (probe_seed, l), so that layers can be read in any order; the first kStayProbes probes of a
// larger count are the default count's.
BranchStrength branch_strength(const Transformer& model, const ForwardCache& cache,
                               std::uint64_t probe_seed, int probes = kStayProbes);
// Layer `layer`'s entries from its block cache (what branch_strength does for every layer),
// for a caller that visits the blocks itself: `out`'s vectors grow to hold the layer.
void read_branch_strength(const BlockImpl& block, const BlockCache& bc, std::size_t layer,
                          std::uint64_t probe_seed, BranchStrength& out, int probes = kStayProbes);
// Layer l's attention pattern averaged over heads, [L, L] float64 (batch 0).
std::vector<torch::Tensor> mean_attention(const ForwardCache& cache);

}  // namespace posbias
