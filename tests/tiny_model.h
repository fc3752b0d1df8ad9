// The tiny model config the torch tests share: d 16, 3 layers, 4 heads (2 KV heads for
// qwen2 and llama), MLP 24, vocab 37, 32 positions, GPT-J rotating 2 dims per head, no dropout.
#pragma once

#include "posbias/arch/config.h"

namespace posbias {

inline ModelConfig tiny_config(Family f, PosEncoding pos) {
  ModelConfig c = family_default(f);
  c.vocab = 37;
  c.d_model = 16;
  c.layers = 3;
  c.heads = 4;
  c.kv_heads = f == Family::kQwen2 || f == Family::kLlama ? 2 : 4;
  c.mlp = 24;
  c.max_positions = 32;
  c.rotary_dim = f == Family::kGptj ? 2 : 0;
  c.pos = pos;
  c.dropout = 0.0;
  return c;
}

}  // namespace posbias
