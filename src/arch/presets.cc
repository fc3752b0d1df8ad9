#include "posbias/arch/presets.h"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/core/enum_names.h"

namespace posbias {

namespace {

// gpt2 and gpt2-medium as Hugging Face publishes them, Qwen2-0.5B, TinyLlama-1.1B
// (LlamaForCausalLM: Llama 2's shape at 22 layers, plain RoPE θ = 10⁴) and paper 2's hop model
// (GPT-J style, 12 layers, one head, partial rotary on 16 of 128 dims).
constexpr std::array<ModelPreset, 5> kPresets{{
    // name, family, layers, d_model, heads, kv_heads, mlp, vocab, max_positions, pos,
    // rotary_dim, rope_theta, norm_eps, tie_embeddings, dropout
    {"gpt2", Family::kGpt2, 12, 768, 12, 12, 3072, 50257, 1024, PosEncoding::kLearned, 0, 1e4, 1e-5,
     true, 0.0},
    {"gpt2-medium", Family::kGpt2, 24, 1024, 16, 16, 4096, 50257, 1024, PosEncoding::kLearned, 0,
     1e4, 1e-5, true, 0.0},
    {"qwen2-0.5b", Family::kQwen2, 24, 896, 14, 2, 4864, 151936, 32768, PosEncoding::kRope, 0, 1e6,
     1e-6, true, 0.0},
    {"tinyllama-1.1b", Family::kLlama, 22, 2048, 32, 4, 5632, 32000, 2048, PosEncoding::kRope, 0,
     1e4, 1e-5, false, 0.0},
    {"gptj-hop", Family::kGptj, 12, 128, 1, 1, 512, 1024, 1024, PosEncoding::kRope, 16, 1e4, 1e-5,
     false, 0.1},
}};

std::vector<std::string_view> preset_names() {
  std::vector<std::string_view> names;
  for (const ModelPreset& p : kPresets) names.push_back(p.name);
  return names;
}

}  // namespace

ModelConfig ModelPreset::config() const {
  ModelConfig c;
  c.family = family;
  c.layers = layers, c.d_model = d_model, c.heads = heads, c.kv_heads = kv_heads, c.mlp = mlp;
  c.vocab = vocab;
  c.max_positions = max_positions;
  c.pos = pos;
  c.rotary_dim = rotary_dim;
  c.rope_theta = rope_theta;
  c.norm_eps = norm_eps;
  c.tie_embeddings = tie_embeddings;
  c.dropout = dropout;
  return c;
}

std::span<const ModelPreset> model_presets() { return kPresets; }

ModelConfig model_preset(const std::string& name) {
  for (const ModelPreset& p : kPresets)
    if (p.name == name) return p.config();
  throw std::invalid_argument("unknown preset '" + name + "' (use " + name_list(preset_names()) +
                              ")");
}

std::vector<std::string> model_preset_names() {
  const std::vector<std::string_view> names = preset_names();
  return {names.begin(), names.end()};
}

ModelConfig family_default(Family family) {
  for (const ModelPreset& p : kPresets) {
    if (p.family != family) continue;
    ModelConfig c = p.config();
    // A family's default trains without dropout (gptj-hop's 0.1 is the hop model's).
    c.dropout = 0.0;
    return c;
  }
  throw std::invalid_argument("no preset of family " + to_string(family));
}

}  // namespace posbias
