// Peak memory of the model's passes, estimated from the config before anything is allocated
// (core/memory.h's require_memory turns an estimate into a one-line refusal). Counts the
// tensors layers.h caches per block ([B, H, L, L] attention weights dominate the dense path at
// long L; the blockwise path keeps [B, H, L] per layer and one tile of scores) plus the
// transient tensors of the layer being computed; values of `bytes_per_value` (4 for float32).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "posbias/arch/attention_path.h"
#include "posbias/arch/config.h"

namespace posbias {

// How a pass runs: which attention, and whether its cache keeps only each block's input
// (activation checkpointing: ForwardCache::checkpoint).
struct PassPlan {
  AttentionPath attention = AttentionPath::kDense;
  bool checkpoint = false;
};

// Parameters (token table and LM head included when token_embeddings).
double weight_bytes(const ModelConfig& cfg, bool token_embeddings, double bytes_per_value = 4);

// Activations of a forward pass over [batch, length]: with `cached`, everything every block
// keeps for the linearized backward (ForwardCache; block inputs only when checkpointing, plus
// the one block being recomputed); without, one block's working set.
double forward_bytes(const ModelConfig& cfg, std::int64_t batch, std::int64_t length, bool cached,
                     PassPlan plan = {}, double bytes_per_value = 4);

// The MLP half of a block's backward runs in position slices of about this many bytes
// (BlockImpl::mlp_half_sliced), whatever the number of cotangents.
inline constexpr double kMlpSliceBytes = 256e6;

// One cotangent of the Jacobian engine's batched backward (jacobian.h), per cotangent in flight.
double jacobian_cotangent_bytes(const ModelConfig& cfg, std::int64_t length,
                                AttentionPath attention = AttentionPath::kDense,
                                double bytes_per_value = 4);

// A training step over [batch, length]: what autograd keeps for the backward (every block's
// activations, the logits and their gradient) on top of the weights, their gradients and
// AdamW's two moments.
double training_step_bytes(const ModelConfig& cfg, std::int64_t batch, std::int64_t length,
                           AttentionPath attention, double bytes_per_value = 4);

// The plan of one Jacobian measurement (birth) of `cotangents` cotangents: weights, a cached
// forward and the cotangents in flight (a chunk of at most 8 per thread; through a
// checkpointed cache, every one at once, or chunks one after another, each chunk recomputing
// every block). The first plan within `budget` bytes (0: no limit) is taken in this order:
// dense, blockwise, blockwise with checkpointing, then the same with half as many cotangents
// in flight, down to an eighth of them (8 passes); `forced` fixes the attention path. When none
// fits, the plan with the fewest bytes is returned (the caller refuses it).
struct JacobianPlan {
  PassPlan pass;
  double bytes = 0;
  std::int64_t in_flight = 0;  // with checkpointing: cotangents per pass (JacobianSpec::max_chunk)
};
JacobianPlan plan_jacobian(const ModelConfig& cfg, std::int64_t length, std::int64_t cotangents,
                           int threads, bool token_embeddings, double budget,
                           std::optional<AttentionPath> forced = std::nullopt);

// The attention of a forward-only or training pass: `forced` when given, else dense while
// bytes(dense) fits the budget (memory_budget_bytes(budget_gb)) or blockwise would need as
// much, else blockwise. The chosen path's bytes are then required (core/memory.h), refused in
// one line: "<what> (<path> attention) needs about ...; use --attention blockwise or
// <smaller>" for dense when blockwise would fit, "...; use <smaller>" otherwise.
AttentionPath plan_attention(const std::function<double(AttentionPath)>& bytes,
                             std::optional<AttentionPath> forced, double budget_gb,
                             const std::string& what, const std::string& smaller);

}  // namespace posbias
