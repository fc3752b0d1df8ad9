// The named model presets, one row each: model_preset's builds, model_preset_names, its error's
// list, family_default's reference preset (a family's first row) and --arch's help all come from
// this table. model_preset, model_preset_names and family_default are declared in config.h.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "posbias/arch/config.h"

namespace posbias {

// A preset's name and the ModelConfig fields it sets; every other field keeps its default.
struct ModelPreset {
  std::string_view name;  // --arch's name for it
  Family family;
  std::int64_t layers, d_model, heads, kv_heads, mlp, vocab, max_positions;
  PosEncoding pos;
  std::int64_t rotary_dim;  // 0 = the whole head
  double rope_theta, norm_eps;
  bool tie_embeddings;
  double dropout;

  ModelConfig config() const;
};

// The presets in their order (the order every list of them shows); a family's first preset is
// its reference preset, which family_default builds.
std::span<const ModelPreset> model_presets();

}  // namespace posbias
