// Transformer architecture config: the four Hugging Face families posbias builds, the
// positional-encoding switch, and the named presets. No libtorch here.
//
// Families: gpt2 (learned positions, pre-LN LayerNorm, GELU MLP, fused qkv with bias),
// qwen2 (RMSNorm, SwiGLU, RoPE θ = 1e6, grouped-query attention, qkv bias), llama (qwen2
// without the qkv bias; Mistral is llama with a sliding window), gptj (parallel attention +
// MLP, partial interleaved rotary on rotary_dim dims, untied head with bias).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/arch/logn_scale.h"
#include "posbias/arch/rope_scaling.h"

namespace posbias {

enum class Family { kGpt2, kQwen2, kGptj, kLlama };

// What a family's blocks are made of, once per family: the model, its memory plan and init read
// these (through ModelConfig's predicates), never the enum value. Their Hugging Face names
// (config.json's fields, the tensors') are the hf concept's (hf_config.cc, hf_weights.cc).
struct FamilyTraits {
  Family family;
  std::string_view name;
  bool rms_norm;            // RMSNorm (weight only) instead of LayerNorm (weight and bias)
  bool parallel_block;      // attention and MLP read one norm and add to the residual together
  bool gated_mlp;           // SwiGLU: down(silu(gate x) · up x); else GELU(fc x) → proj
  bool qkv_bias;            // the q, k and v projections have biases
  bool out_bias;            // the attention output projection has a bias
  bool mlp_bias;            // the MLP's projections have biases
  bool head_bias;           // the LM head has a bias
  bool scaled_residual;     // init draws the residual projections with std/√(2·layers) (GPT-2)
  bool interleaved_rotary;  // RoPE rotates pairs (x[2i], x[2i+1]); else the halves (rotate_half)
};

inline constexpr std::array<FamilyTraits, 4> kFamilies{{
    // family, name, rms_norm, parallel, gated, qkv_bias, out_bias, mlp_bias, head_bias,
    // scaled_residual, interleaved_rotary
    {Family::kGpt2, "gpt2", false, false, false, true, true, true, false, true, false},
    {Family::kQwen2, "qwen2", true, false, true, true, false, false, false, false, false},
    {Family::kGptj, "gptj", false, true, false, false, false, true, true, false, true},
    {Family::kLlama, "llama", true, false, true, false, false, false, false, false, false},
}};

const FamilyTraits& traits(Family family);
// How token positions enter the model (config.json's posbias extension "position_encoding").
// A new encoding is a value here, its row in kPosEncodings below and its kernel in the model
// (docs/architecture.md, "Where to add"); everything else reads the row's traits.
enum class PosEncoding { kLearned, kRope, kNone, kAlibi };

// What an encoding does to the model, once per encoding. The model, its memory plan and weight
// names, the Hugging Face mapping, the no-fit prediction and every length check read these
// (through ModelConfig's learned_positions, rotary, alibi_slopes and position_limit), never
// the enum value.
struct PosEncodingTraits {
  PosEncoding encoding;
  std::string_view name;
  bool table;   // a learned [max_positions, d_model] table added to the embeddings (wpe)
  bool rotary;  // rotates q and k by position (rotary_dim dims per head, base rope_theta)
  bool slopes;  // adds -m_h·(i-j) to head h's scores, m_h the standard ALiBi slopes
};

inline constexpr std::array<PosEncodingTraits, 4> kPosEncodings{{
    {PosEncoding::kLearned, "learned", /*table=*/true, /*rotary=*/false, /*slopes=*/false},
    {PosEncoding::kRope, "rope", false, true, false},
    {PosEncoding::kNone, "none", false, false, false},
    {PosEncoding::kAlibi, "alibi", false, false, true},
}};

const PosEncodingTraits& traits(PosEncoding encoding);
// The encodings' names as "a, b or c", those with a learned table left out when asked (they
// cannot be evaluated past their table).
std::string pos_encoding_names(bool with_table = true);

std::string to_string(Family family);          // "gpt2", "qwen2", "gptj", "llama"
std::string to_string(PosEncoding encoding);   // "learned", "rope", "none", "alibi"
Family parse_family(const std::string& name);  // throws std::invalid_argument
PosEncoding parse_pos_encoding(const std::string& name);

// The standard ALiBi slopes of Press et al. for n heads: m_h = 2^(-8h/n), h = 1..n (the model's
// attention bias and the theory's operator both read them here). Throws std::invalid_argument
// outside 1..4096 heads.
std::vector<double> alibi_standard_slopes(int heads);

// A null sink's weight w = e^b for its logit b (softmax off by one: every head's normalizer
// gains e^b, the sink carries no value). The one check of b: throws std::invalid_argument
// unless b is finite and e^b a finite double above 0 (|b| <= 700).
double null_sink_weight(double logit);

struct ModelConfig {
  Family family = Family::kGpt2;
  std::int64_t vocab = 50257;
  std::int64_t d_model = 768;
  std::int64_t layers = 12;
  std::int64_t heads = 12;
  std::int64_t kv_heads = 12;         // = heads unless grouped-query attention
  std::int64_t mlp = 3072;            // MLP hidden width
  std::int64_t max_positions = 1024;  // size of the learned position table
  std::int64_t rotary_dim = 0;        // dims per head that rotate; 0 = whole head
  double rope_theta = 10000.0;
  double norm_eps = 1e-5;
  double init_std = 0.02;  // initializer_range
  bool tie_embeddings = true;
  PosEncoding pos = PosEncoding::kLearned;
  double dropout = 0.0;  // embedding, attention and residual dropout
  // GPT-2's init draws the residual projections (attention and MLP output) with std
  // init_std/√(2·layers), as Hugging Face does; false draws them like every other weight.
  bool residual_init_scaling = true;
  // Sliding-window causal attention: query i sees keys i-W+1..i (every layer); 0 = all keys
  // up to i. Hugging Face's use_sliding_window / sliding_window (max_window_layers 0).
  std::int64_t window = 0;
  // Multiplies the attention output projection's init std (`birth --attn-scale`): the
  // attention branch's strength at init. Not saved in config.json (weights carry it).
  double attn_init_scale = 1.0;
  // A null sink in every attention head (`--null-sink b`): a learned sink logit per head,
  // initialized to b, added to each query's softmax normalizer as e^b with no value. None: plain
  // softmax.
  std::optional<double> null_sink;
  // Inference-time RoPE scaling (`eval --rope-scaling`, rope_scaling.h): the rotations of a
  // rotary model changed at evaluation. Not saved in config.json; none: the trained rotations.
  std::optional<RopeScaling> rope_scaling;
  // Log-n attention scaling (`--logn-scale s`, logn_scale.h): query i's logits multiplied by
  // s·log(n_i), n_i the keys it sees. Saved in config.json when trained with it (`train`), set
  // on a loaded model at evaluation only (`eval`). None: plain softmax.
  std::optional<double> logn_scale;

  std::int64_t head_dim() const { return d_model / heads; }
  std::int64_t rotary_dims() const { return rotary_dim == 0 ? head_dim() : rotary_dim; }
  // The family's traits (kFamilies).
  bool rms_norm() const { return traits(family).rms_norm; }
  bool parallel_block() const { return traits(family).parallel_block; }
  bool gated_mlp() const { return traits(family).gated_mlp; }
  bool qkv_bias() const { return traits(family).qkv_bias; }
  bool out_bias() const { return traits(family).out_bias; }
  bool mlp_bias() const { return traits(family).mlp_bias; }
  bool head_bias() const { return traits(family).head_bias; }
  bool interleaved_rotary() const { return traits(family).interleaved_rotary; }
  // The positional encoding's traits (kPosEncodings).
  bool learned_positions() const { return traits(pos).table; }
  bool rotary() const { return traits(pos).rotary; }
  // The per-head ALiBi slopes, empty when the encoding has none.
  std::vector<double> alibi_slopes() const;
  // The longest input the encoding can place: max_positions for a learned table, none otherwise.
  std::optional<std::int64_t> position_limit() const;
  // Residual projections scaled by 1/sqrt(2·layers) at init (GPT-2 only).
  bool scaled_residual_init() const {
    return traits(family).scaled_residual && residual_init_scaling;
  }

  // Throws std::invalid_argument naming the bad field.
  void validate() const;
};

// gpt2 (12L, 768d, 12h), gpt2-medium (24L, 1024d, 16h), qwen2-0.5b (24L, 896d, 14h, 2 kv,
// MLP 4864), tinyllama-1.1b (22L, 2048d, 32h, 4 kv, MLP 5632, vocab 32000), gptj-hop (12L,
// 128d, 1h, MLP 512, rotary 16, dropout 0.1).
ModelConfig model_preset(const std::string& name);
std::vector<std::string> model_preset_names();
// The family's own default config at that family's usual shape (gpt2 → preset gpt2, ...).
ModelConfig family_default(Family family);

}  // namespace posbias
