// Jacobian-norm influence profiles: p_j = ‖∂y_q/∂x_j‖_F for every input position j, where
// y_q is the final normed hidden state at the query and x_j the input embedding at j.
//
// kExact propagates the D one-hot cotangents of y_q through one linearized backward pass
// (Transformer::backward_from_query[_by_block]), in chunks that bound memory. kHutchinson
// propagates k Gaussian probes v and averages ‖J_jᵀv‖² (an unbiased estimate of ‖J_j‖²_F).
// kAutogradLoop is the textbook reference: D separate vector-Jacobian products through autograd.
// Scalar targets (JacobianSpec::target loss or prob) take one autograd backward of that scalar.
// Shapes: x [1, L, D]; the profile is [L] float64.
#pragma once

#include <torch/torch.h>

#include <functional>

#include "posbias/model/transformer.h"
#include "posbias/theory/influence_method.h"

namespace posbias {

// How the exact and Hutchinson backward is organized: chunk by chunk through the whole model
// (each chunk of cotangents takes both MLP GEMMs), or block by block with each MLP half applied
// as one D×D map per position (Transformer::backward_from_query_by_block). kAuto takes the
// block-by-block pass when it needs fewer FLOPs (many cotangents: exact) and fits the budget.
enum class BackwardOrder { kAuto, kByChunk, kByBlock };

struct JacobianSpec {
  JacobianMethod method = JacobianMethod::kExact;
  std::int64_t query = 0;         // 1-based query position; 0 = last
  std::int64_t probes = 16;       // Hutchinson probes
  std::uint64_t probe_seed = 0;   // Hutchinson RNG seed
  std::int64_t max_chunk = 0;     // cotangents per backward pass; 0 = from the memory budget
  double memory_budget_gb = 4.0;  // for the automatic chunk size
  BackwardOrder order = BackwardOrder::kAuto;
  // Keep only each block's input and recompute its cache in the backward (ForwardCache::
  // checkpoint): for lengths whose MLP activations pass memory. All cotangents then go through
  // each block together, so each block is recomputed once.
  bool checkpoint = false;
  // Called with each block's cache after that block of a checkpointed or block-by-block
  // backward (a checkpointed backward in several chunks calls it for each chunk's blocks):
  // progress of long runs, and readings that share the backward's recompute of a checkpointed
  // block. The chunked backward runs its chunks on threads and does not call it.
  BlockVisitor on_block = nullptr;
  // kLoss and kProb: the gradient of one scalar at the query (method and probes unused);
  // kLoss needs the id of the token after the query.
  InfluenceTarget target = InfluenceTarget::kHidden;
  std::int64_t next_token = -1;
};

torch::Tensor jacobian_profile(Transformer& model, const torch::Tensor& x, const JacobianSpec& spec,
                               ForwardCache* cache_out = nullptr);

}  // namespace posbias
