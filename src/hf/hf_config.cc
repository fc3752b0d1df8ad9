#include "posbias/hf/hf_config.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "posbias/core/json_read.h"
#include "posbias/core/strict_json.h"

namespace posbias {
namespace {

using nlohmann::json;

constexpr int kMaxConfigDepth = 32;  // config.json nests a few levels

// Qwen2 spells its config.json (and its tensors) as Llama does; GPT-2 and GPT-J as GPT-2 does.
bool llama_spelling(Family type) { return type == Family::kQwen2 || type == Family::kLlama; }

// The families' own spellings of the shared fields.
struct FieldNames {
  const char* hidden;
  const char* layers;
  const char* heads;
  const char* mlp;
  const char* positions;
  const char* eps;
  const char* activation;
  const char* attn_dropout;
};

FieldNames field_names(Family type) {
  if (llama_spelling(type))
    return {"hidden_size",       "num_hidden_layers",       "num_attention_heads",
            "intermediate_size", "max_position_embeddings", "rms_norm_eps",
            "hidden_act",        "attention_dropout"};
  return {"n_embd",
          "n_layer",
          "n_head",
          "n_inner",
          "n_positions",
          "layer_norm_epsilon",
          "activation_function",
          "attn_pdrop"};
}

constexpr std::array<std::string_view, 9> kActivations = {
    "gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh", "quick_gelu", "relu",
    "silu", "swish",    "tanh"};

std::string number_text(double v) { return json(v).dump(); }

[[noreturn]] void bad(const std::string& source, const std::string& what) {
  throw std::invalid_argument(source + ": " + what);
}

void check_range(const std::string& source, const char* field, std::int64_t v, std::int64_t lo,
                 std::int64_t hi) {
  if (v < lo || v > hi)
    bad(source, std::string(field) + " = " + std::to_string(v) + " is out of range [" +
                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

// Typed access to the top-level object; absent keys give nullopt, wrong types throw.
class Fields {
 public:
  Fields(const json& root, const std::string& source) : root_(root), source_(source) {}

  const json* find(const char* key) const {
    const auto it = root_.find(key);
    return it == root_.end() ? nullptr : &*it;
  }

  // An integer in [lo, hi]; null gives nullopt only when nullable.
  std::optional<std::int64_t> integer(const char* key, std::int64_t lo, std::int64_t hi,
                                      bool nullable = false) const {
    const json* v = find(key);
    if (v == nullptr || (nullable && v->is_null())) return std::nullopt;
    if (!v->is_number_integer())
      bad(source_, std::string(key) + " must be an integer, got " + brief_json(*v));
    if (v->is_number_unsigned() &&
        v->get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      bad(source_, std::string(key) + " = " + brief_json(*v) + " is out of range [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
    const auto value = v->get<std::int64_t>();
    check_range(source_, key, value, lo, hi);
    return value;
  }

  // An integer that gpt2/gptj may also spell with its HF attribute-map alias; both present
  // must agree.
  std::int64_t required_integer(const char* key, const char* alias, std::int64_t lo,
                                std::int64_t hi) const {
    const auto native = integer(key, lo, hi);
    const auto aliased = alias ? integer(alias, lo, hi) : std::nullopt;
    if (native && aliased && *native != *aliased)
      bad(source_, std::string(alias) + " = " + std::to_string(*aliased) + " conflicts with " +
                       key + " = " + std::to_string(*native));
    if (native) return *native;
    if (aliased) return *aliased;
    bad(source_, std::string("required field ") + key + " is missing");
  }

  double number(const char* key, double fallback) const {
    const json* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_number())
      bad(source_, std::string(key) + " must be a number, got " + brief_json(*v));
    return v->get<double>();
  }

  std::string string(const char* key, const std::string& fallback) const {
    const json* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_string())
      bad(source_, std::string(key) + " must be a string, got " + brief_json(*v));
    return v->get<std::string>();
  }

  bool boolean(const char* key, bool fallback) const {
    const json* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_boolean())
      bad(source_, std::string(key) + " must be true or false, got " + brief_json(*v));
    return v->get<bool>();
  }

 private:
  const json& root_;
  const std::string& source_;
};

// Llama's and Qwen2's options that would silently change the model if ignored: a rope scaling
// other than the default, biases Llama can switch on, a head_dim of its own.
void refuse_unbuilt_features(const Fields& in, const HfConfig& c, const std::string& src) {
  if (const json* s = in.find("rope_scaling"); s != nullptr && !s->is_null()) {
    std::string type = "(none given)";
    bool plain = s->is_object() && !s->empty();
    if (s->is_object()) {
      for (const auto& [key, value] : s->items()) {
        if (key != "rope_type" && key != "type") {
          plain = false;
          continue;
        }
        type = value.is_string() ? "'" + value.get<std::string>() + "'" : brief_json(value);
        plain = plain && value == "default";
      }
    }
    if (!plain)
      bad(src, "rope_scaling = " + brief_json(*s) + " is not supported (rope type " + type +
                   "); posbias implements plain RoPE: rope_scaling null or rope_type default");
  }
  if (c.model_type != Family::kLlama) return;
  for (const char* field : {"attention_bias", "mlp_bias"})
    if (in.boolean(field, false))
      bad(src, std::string(field) + " = true is not supported; posbias builds Llama without " +
                   (std::string(field) == "mlp_bias" ? "MLP" : "attention") + " biases");
  if (const auto head_dim = in.integer("head_dim", 1, 65536, /*nullable=*/true);
      head_dim && *head_dim * c.num_attention_heads != c.hidden_size)
    bad(src, "head_dim = " + std::to_string(*head_dim) +
                 " is not supported; posbias builds head_dim = hidden_size / num_attention_heads "
                 "= " +
                 std::to_string(c.hidden_size) + " / " + std::to_string(c.num_attention_heads));
}

}  // namespace

void validate_hf_config(const HfConfig& c, const std::string& source) {
  const std::string family = to_string(c.model_type);  // throws on a bad enum
  to_string(c.position_encoding);
  const FieldNames f = field_names(c.model_type);
  check_range(source, "vocab_size", c.vocab_size, 1, 10'000'000);
  check_range(source, f.hidden, c.hidden_size, 1, 65536);
  check_range(source, f.layers, c.num_hidden_layers, 1, 1024);
  check_range(source, f.heads, c.num_attention_heads, 1, 1024);
  check_range(source, "num_key_value_heads", c.num_key_value_heads, 1, 1024);
  check_range(source, f.mlp, c.intermediate_size, 1, 1'000'000);
  check_range(source, f.positions, c.max_position_embeddings, 1, 10'000'000);
  if (c.hidden_size % c.num_attention_heads != 0)
    bad(source, std::string(f.heads) + " = " + std::to_string(c.num_attention_heads) +
                    " does not divide " + f.hidden + " = " + std::to_string(c.hidden_size));
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    bad(source, "num_key_value_heads = " + std::to_string(c.num_key_value_heads) +
                    " does not divide " + f.heads + " = " + std::to_string(c.num_attention_heads));
  const std::int64_t head_dim = c.head_dim();
  if (traits(c.position_encoding).rotary) {
    if (c.rotary_dim < 1 || c.rotary_dim > head_dim)
      bad(source, "rotary_dim = " + std::to_string(c.rotary_dim) +
                      " is outside [1, head_dim = " + std::to_string(head_dim) +
                      "] (head_dim = " + f.hidden + " / " + f.heads + ")");
    if (c.rotary_dim % 2 != 0)
      bad(source, "rotary_dim = " + std::to_string(c.rotary_dim) +
                      " must be even (RoPE rotates pairs of dimensions)" +
                      (c.model_type == Family::kGptj ? "" : "; here rotary_dim = head_dim"));
  } else if (c.rotary_dim != 0) {
    bad(source, "rotary_dim = " + std::to_string(c.rotary_dim) + " but position_encoding is " +
                    to_string(c.position_encoding) + ", not rope");
  }
  const auto positive = [&](const char* field, double v) {
    if (!std::isfinite(v) || v <= 0)
      bad(source, std::string(field) + " = " + number_text(v) + " must be finite and > 0");
  };
  positive("rope_theta", c.rope_theta);
  positive(f.eps, c.norm_eps);
  positive("initializer_range", c.initializer_range);
  const auto probability = [&](const char* field, double v) {
    if (!(v >= 0 && v < 1))
      bad(source, std::string(field) + " = " + number_text(v) + " must be in [0, 1)");
  };
  probability(f.attn_dropout, c.attn_pdrop);
  if (llama_spelling(c.model_type)) {
    if (c.resid_pdrop != 0 || c.embd_pdrop != 0)
      bad(source, family + " has no resid_pdrop or embd_pdrop; they must be 0");
  } else {
    probability("resid_pdrop", c.resid_pdrop);
    probability("embd_pdrop", c.embd_pdrop);
  }
  bool known_activation = false;
  for (const auto a : kActivations) known_activation = known_activation || a == c.activation;
  if (!known_activation) {
    std::string list;
    for (const auto a : kActivations) list += (list.empty() ? "" : ", ") + std::string(a);
    bad(source, std::string(f.activation) + " '" + c.activation + "' is not supported for " +
                    std::string(family) + " (expected one of " + list + ")");
  }
}

HfConfig parse_hf_config(const std::string& json_text, const std::string& source_name) {
  const std::string& src = source_name;
  if (json_text.size() > kMaxHfConfigBytes)
    throw std::runtime_error(src + ": " + std::to_string(json_text.size()) +
                             " bytes is more than the " + std::to_string(kMaxHfConfigBytes) +
                             "-byte limit for a config.json");
  const json root = parse_json_unique_keys(json_text, src, kMaxConfigDepth);
  if (!root.is_object())
    throw std::runtime_error(src + ": top level is " + root.type_name() + ", not a JSON object");
  const Fields in(root, src);

  const json* type = in.find("model_type");
  if (type == nullptr) bad(src, "required field model_type is missing");
  if (!type->is_string()) bad(src, "model_type must be a string, got " + brief_json(*type));
  HfConfig c;
  const std::string type_name = type->get<std::string>();
  // Mistral is Llama with a sliding window over every layer.
  const bool mistral = type_name == "mistral";
  if (type_name == "gpt2") {
    c.model_type = Family::kGpt2;
  } else if (type_name == "qwen2") {
    c.model_type = Family::kQwen2;
  } else if (type_name == "gptj") {
    c.model_type = Family::kGptj;
  } else if (type_name == "llama" || mistral) {
    c.model_type = Family::kLlama;
  } else {
    bad(src, "model_type " + brief_json(*type) +
                 " is not supported (expected gpt2, qwen2, gptj, llama or mistral)");
  }
  const bool llama_names = llama_spelling(c.model_type);  // Llama's field names and defaults
  const FieldNames f = field_names(c.model_type);

  c.vocab_size = in.required_integer("vocab_size", nullptr, 1, 10'000'000);
  c.hidden_size = in.required_integer(f.hidden, llama_names ? nullptr : "hidden_size", 1, 65536);
  c.num_hidden_layers =
      in.required_integer(f.layers, llama_names ? nullptr : "num_hidden_layers", 1, 1024);
  c.num_attention_heads =
      in.required_integer(f.heads, llama_names ? nullptr : "num_attention_heads", 1, 1024);
  c.max_position_embeddings = in.required_integer(
      f.positions, llama_names ? nullptr : "max_position_embeddings", 1, 10'000'000);
  c.num_key_value_heads =
      in.integer("num_key_value_heads", 1, 1024).value_or(c.num_attention_heads);
  if (llama_names) {
    c.intermediate_size = in.required_integer("intermediate_size", nullptr, 1, 1'000'000);
  } else {
    c.intermediate_size =
        in.integer("n_inner", 1, 1'000'000, /*nullable=*/true).value_or(4 * c.hidden_size);
  }

  const std::string encoding =
      in.string("position_encoding", c.model_type == Family::kGpt2 ? "learned" : "rope");
  try {
    c.position_encoding = parse_pos_encoding(encoding);
  } catch (const std::invalid_argument&) {
    bad(src, "position_encoding '" + encoding + "' is not supported (expected " +
                 pos_encoding_names() + ")");
  }
  std::optional<std::int64_t> rotary;
  if (c.model_type == Family::kGptj) rotary = in.integer("rotary_dim", 1, 65536, true);
  c.rotary_dim = !traits(c.position_encoding).rotary ? 0
                 : rotary                            ? *rotary
                                                     : c.hidden_size / c.num_attention_heads;

  if (in.find("null_sink") != nullptr) c.null_sink = in.number("null_sink", 0.0);
  if (in.find("logn_scale") != nullptr) c.logn_scale = in.number("logn_scale", 0.0);
  c.rope_theta = in.number("rope_theta", 10000.0);
  c.norm_eps = in.number(f.eps, llama_names ? 1e-6 : 1e-5);
  c.initializer_range = in.number("initializer_range", 0.02);
  c.activation = in.string(f.activation, llama_names ? "silu" : "gelu_new");
  c.tie_word_embeddings = in.boolean("tie_word_embeddings", c.model_type == Family::kGpt2);
  const double dropout = c.model_type == Family::kGpt2 ? 0.1 : 0.0;
  c.attn_pdrop = in.number(f.attn_dropout, dropout);
  if (!llama_names) {
    c.resid_pdrop = in.number("resid_pdrop", dropout);
    c.embd_pdrop = in.number("embd_pdrop", dropout);
  }

  if (llama_names) refuse_unbuilt_features(in, c, src);
  if (c.model_type == Family::kLlama) {
    // Llama has no window (transformers ignores use_sliding_window there); Mistral windows every
    // layer, 4096 keys unless its config says otherwise (null: none).
    if (in.boolean("use_sliding_window", false))
      bad(src,
          "use_sliding_window is not a Llama field (transformers ignores it); a windowed Llama "
          "is model_type mistral with sliding_window");
    if (mistral)
      c.sliding_window = in.find("sliding_window") == nullptr
                             ? 4096
                             : in.integer("sliding_window", 1, 10'000'000, true).value_or(0);
  } else if (in.boolean("use_sliding_window", false)) {
    c.sliding_window = in.required_integer("sliding_window", nullptr, 1, 10'000'000);
    // Qwen2 windows only the layers from max_window_layers on; posbias windows every layer.
    if (in.integer("max_window_layers", 0, 1024).value_or(0) != 0)
      bad(src,
          "use_sliding_window with max_window_layers > 0 is not supported; posbias "
          "windows every layer (max_window_layers 0)");
  }
  validate_hf_config(c, src);
  return c;
}

HfConfig read_hf_config(const std::filesystem::path& path) {
  const std::string src = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error(src + ": not a readable regular file" +
                             (ec ? " (" + ec.message() + ")" : std::string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(src + ": cannot open: " + std::strerror(errno));
  std::string text(kMaxHfConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw std::runtime_error(src + ": cannot read: " + std::strerror(errno));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxHfConfigBytes)
    throw std::runtime_error(src + ": larger than the " + std::to_string(kMaxHfConfigBytes) +
                             "-byte limit for a config.json");
  return parse_hf_config(text, src);
}

std::string hf_model_type(const HfConfig& c) {
  return c.model_type == Family::kLlama && c.sliding_window > 0
             ? "mistral"
             : std::string(to_string(c.model_type));
}

json to_json(const HfConfig& c) {
  validate_hf_config(c, "to_json");
  const FieldNames f = field_names(c.model_type);
  json j = json::object();
  j["model_type"] = hf_model_type(c);
  j["vocab_size"] = c.vocab_size;
  j[f.hidden] = c.hidden_size;
  j[f.layers] = c.num_hidden_layers;
  j[f.heads] = c.num_attention_heads;
  j[f.mlp] = c.intermediate_size;
  j[f.positions] = c.max_position_embeddings;
  j[f.eps] = c.norm_eps;
  j[f.activation] = c.activation;
  j[f.attn_dropout] = c.attn_pdrop;
  j["initializer_range"] = c.initializer_range;
  j["tie_word_embeddings"] = c.tie_word_embeddings;
  j["position_encoding"] = to_string(c.position_encoding);
  if (c.null_sink) j["null_sink"] = *c.null_sink;
  if (c.logn_scale) j["logn_scale"] = *c.logn_scale;
  if (c.sliding_window > 0 && c.model_type != Family::kLlama) {
    j["use_sliding_window"] = true;
    j["sliding_window"] = c.sliding_window;
    j["max_window_layers"] = 0;
  }
  switch (c.model_type) {
    case Family::kQwen2:
      j["architectures"] = json::array({"Qwen2ForCausalLM"});
      j["num_key_value_heads"] = c.num_key_value_heads;
      j["rope_theta"] = c.rope_theta;
      break;
    case Family::kLlama:  // a window makes it a Mistral
      j["num_key_value_heads"] = c.num_key_value_heads;
      j["rope_theta"] = c.rope_theta;
      if (c.sliding_window > 0) {
        j["architectures"] = json::array({"MistralForCausalLM"});
        j["sliding_window"] = c.sliding_window;
      } else {
        j["architectures"] = json::array({"LlamaForCausalLM"});
        j["attention_bias"] = false;
        j["mlp_bias"] = false;
      }
      break;
    case Family::kGpt2:
    case Family::kGptj:
      j["architectures"] =
          json::array({c.model_type == Family::kGpt2 ? "GPT2LMHeadModel" : "GPTJForCausalLM"});
      j["n_ctx"] = c.max_position_embeddings;
      j["resid_pdrop"] = c.resid_pdrop;
      j["embd_pdrop"] = c.embd_pdrop;
      if (c.num_key_value_heads != c.num_attention_heads)
        j["num_key_value_heads"] = c.num_key_value_heads;
      if (c.rope_theta != 10000.0) j["rope_theta"] = c.rope_theta;  // posbias extension
      if (c.model_type == Family::kGptj)
        j["rotary_dim"] = c.rotary_dim > 0 ? json(c.rotary_dim) : json(nullptr);
      break;
  }
  return j;
}

ModelConfig model_config_from_hf(const HfConfig& hf) {
  ModelConfig c;
  c.family = hf.model_type;
  c.vocab = hf.vocab_size;
  c.d_model = hf.hidden_size;
  c.layers = hf.num_hidden_layers;
  c.heads = hf.num_attention_heads;
  c.kv_heads = hf.num_key_value_heads;
  c.mlp = hf.intermediate_size;
  c.max_positions = hf.max_position_embeddings;
  c.pos = hf.position_encoding;
  c.rotary_dim = hf.rotary_dim == hf.head_dim() ? 0 : hf.rotary_dim;
  c.rope_theta = hf.rope_theta;
  c.window = hf.sliding_window;
  c.null_sink = hf.null_sink;
  c.logn_scale = hf.logn_scale;
  c.norm_eps = hf.norm_eps;
  c.init_std = hf.initializer_range;
  c.tie_embeddings = hf.tie_word_embeddings;
  c.dropout = hf.resid_pdrop;
  const bool gelu_tanh = hf.activation == "gelu_new" || hf.activation == "gelu_pytorch_tanh" ||
                         hf.activation == "gelu_fast";
  if (c.gated_mlp() ? hf.activation != "silu" : !gelu_tanh) {
    throw std::invalid_argument(std::string(field_names(c.family).activation) + " '" +
                                hf.activation + "' is not supported for " + to_string(c.family) +
                                " (posbias builds " + (c.gated_mlp() ? "silu" : "gelu_new") + ")");
  }
  c.validate();
  return c;
}

HfConfig hf_config_from_model(const ModelConfig& c) {
  HfConfig hf;
  hf.model_type = c.family;
  hf.vocab_size = c.vocab;
  hf.hidden_size = c.d_model;
  hf.num_hidden_layers = c.layers;
  hf.num_attention_heads = c.heads;
  hf.num_key_value_heads = c.kv_heads;
  hf.intermediate_size = c.mlp;
  hf.max_position_embeddings = c.max_positions;
  hf.position_encoding = c.pos;
  hf.rotary_dim = c.rotary() ? c.rotary_dims() : 0;
  hf.rope_theta = c.rope_theta;
  hf.sliding_window = c.window;
  hf.null_sink = c.null_sink;
  hf.logn_scale = c.logn_scale;
  hf.norm_eps = c.norm_eps;
  hf.initializer_range = c.init_std;
  hf.activation = c.gated_mlp() ? "silu" : "gelu_new";
  hf.tie_word_embeddings = c.tie_embeddings;
  hf.resid_pdrop = hf.embd_pdrop = hf.attn_pdrop = c.dropout;
  return hf;
}

}  // namespace posbias
