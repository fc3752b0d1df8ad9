// Hugging Face config.json for the model families posbias loads (gpt2, qwen2, gptj, llama;
// mistral is read as llama with a sliding window), read into one plain struct without libtorch.
// Fields use the HF attribute names (hidden_size, num_hidden_layers, ...; GPT2Config.attribute_map
// maps n_embd etc. onto them); to_json() writes each family's own spelling back. Derived fields
// (defaults, head_dim) are filled in by the parser and every value is checked in
// validate_hf_config(). Unknown keys are ignored, as transformers does; duplicate keys are
// rejected. Content errors throw std::invalid_argument, I/O and JSON syntax errors
// std::runtime_error; messages are one line naming the file and the field: "config.json: n_head = 5
// does not divide n_embd = 64". Options of qwen2 and llama that posbias does not build (a
// rope_scaling other than the default, Llama's attention_bias or mlp_bias, a head_dim other than
// hidden_size / num_attention_heads) are refused by name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/arch/config.h"

namespace posbias {

constexpr std::size_t kMaxHfConfigBytes = std::size_t{1} << 20;

struct HfConfig {
  Family model_type = Family::kGpt2;
  std::int64_t vocab_size = 0;
  std::int64_t hidden_size = 0;              // gpt2/gptj "n_embd"
  std::int64_t num_hidden_layers = 0;        // gpt2/gptj "n_layer"
  std::int64_t num_attention_heads = 0;      // gpt2/gptj "n_head"
  std::int64_t num_key_value_heads = 0;      // default num_attention_heads
  std::int64_t intermediate_size = 0;        // MLP width; gpt2/gptj "n_inner" (null: 4 * hidden)
  std::int64_t max_position_embeddings = 0;  // gpt2/gptj "n_positions"
  // Dimensions per head that RoPE rotates: gptj "rotary_dim" (null: head_dim), head_dim for the
  // others; 0 when position_encoding is not kRope.
  std::int64_t rotary_dim = 0;
  double rope_theta = 10000.0;  // "rope_theta": qwen2, llama; posbias extension for gpt2/gptj
  double norm_eps = 0;          // "layer_norm_epsilon" (1e-5) / qwen2, llama "rms_norm_eps" (1e-6)
  double initializer_range = 0.02;  // "initializer_range"
  std::string activation;           // "activation_function" (gelu_new) / qwen2, llama "hidden_act"
  bool tie_word_embeddings = true;  // defaults as transformers: gpt2 true, qwen2/gptj/llama false
  double resid_pdrop = 0;           // gpt2 default 0.1, gptj 0.0; qwen2 and llama have none (0)
  double embd_pdrop = 0;            // as resid_pdrop
  double attn_pdrop = 0;            // qwen2 "attention_dropout" (default 0)
  PosEncoding position_encoding = PosEncoding::kLearned;  // gpt2 learned, else rope
  // "sliding_window" when "use_sliding_window" is true (every layer: "max_window_layers" 0);
  // 0 = full causal attention. A posbias extension for gpt2/gptj. For llama: mistral's
  // "sliding_window" (default 4096, null none), written back as model_type mistral.
  std::int64_t sliding_window = 0;
  // "null_sink", a posbias extension: every head's learned sink logit (tensors "…attn.sinks",
  // gpt-oss's name), initialized to this b. Absent: plain softmax.
  std::optional<double> null_sink;
  // "logn_scale", a posbias extension: query i's attention logits multiplied by s·log(n_i), n_i
  // the keys it sees (scalable softmax, arch/logn_scale.h). Absent: plain softmax.
  std::optional<double> logn_scale;

  std::int64_t head_dim() const { return hidden_size / num_attention_heads; }
  bool operator==(const HfConfig&) const = default;
};

// Parses config.json text. source_name prefixes every message (usually the path).
HfConfig parse_hf_config(const std::string& json_text, const std::string& source_name);
// Reads and parses a file of at most kMaxHfConfigBytes.
HfConfig read_hf_config(const std::filesystem::path& path);
// Checks ranges and divisibility; throws std::invalid_argument naming the field.
void validate_hf_config(const HfConfig& config, const std::string& source_name);
// The config with the model family's HF field names (validated first); parse_hf_config of its
// dump gives back an equal HfConfig.
nlohmann::json to_json(const HfConfig& config);
// The model_type config.json names: the family's, or mistral for a Llama with a sliding window.
std::string hf_model_type(const HfConfig& config);

// config.json (Hugging Face field names) ↔ ModelConfig, both by one table of rows (hf_config.cc's
// kHfFields: each config.json key, its HfConfig member and the ModelConfig member or rule it maps
// to). Throws std::invalid_argument for settings posbias does not implement (e.g. an activation
// other than the family's own). ModelConfig's residual_init_scaling, attn_init_scale and
// rope_scaling are not in config.json.
ModelConfig model_config_from_hf(const HfConfig& hf);
HfConfig hf_config_from_model(const ModelConfig& cfg);
// Every key the table spells, in either family's spelling (each once).
std::vector<std::string> hf_config_keys();

}  // namespace posbias
