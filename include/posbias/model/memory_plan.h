// Peak memory of the model's passes, estimated from the config before anything is allocated
// (core/memory.h's require_memory turns an estimate into a one-line refusal). Counts the
// tensors layers.h caches per block ([B, H, L, L] attention weights dominate at long L) plus the
// transient scores of the layer being computed; values of `bytes_per_value` (4 for float32).
#pragma once

#include <cstdint>

#include "posbias/arch/config.h"

namespace posbias {

// Parameters (token table and LM head included when token_embeddings).
double weight_bytes(const ModelConfig& cfg, bool token_embeddings, double bytes_per_value = 4);

// Activations of a forward pass over [batch, length]: with `cached`, everything every block
// keeps for the linearized backward (ForwardCache); without, one block's working set.
double forward_bytes(const ModelConfig& cfg, std::int64_t batch, std::int64_t length, bool cached,
                     double bytes_per_value = 4);

// One cotangent of the Jacobian engine's batched backward (jacobian.h), per thread in flight.
double jacobian_cotangent_bytes(const ModelConfig& cfg, std::int64_t length,
                                double bytes_per_value = 4);

}  // namespace posbias
