#include "posbias/hf/hf_config.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <variant>

#include "posbias/arch/arch_codecs.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/json_read.h"
#include "posbias/core/strict_json.h"

namespace posbias {
namespace {

using nlohmann::json;

constexpr int kMaxConfigDepth = 32;  // config.json nests a few levels

// Qwen2 spells its config.json (and its tensors) as Llama does; GPT-2 and GPT-J as GPT-2 does.
bool llama_spelling(Family type) { return type == Family::kQwen2 || type == Family::kLlama; }

// The keys of config.json that map to no HfConfig member (checked or written by hand), beside
// the table's (kHfFields below).
constexpr const char* kUseSlidingWindow = "use_sliding_window";
constexpr const char* kMaxWindowLayers = "max_window_layers";
constexpr const char* kAttentionBias = "attention_bias";  // Llama's
constexpr const char* kMlpBias = "mlp_bias";              // Llama's
constexpr const char* kHeadDim = "head_dim";              // Llama's
constexpr const char* kRopeScaling = "rope_scaling";
constexpr const char* kArchitectures = "architectures";
constexpr const char* kNCtx = "n_ctx";  // GPT-2's and GPT-J's, n_positions again

// model_type's names: each family's own (kFamilies) and mistral, which is llama with a sliding
// window over every layer.
constexpr std::string_view kMistral = "mistral";
constexpr EnumNames<Family, kFamilies.size() + 1> model_type_names() {
  EnumNames<Family, kFamilies.size() + 1> names{};
  for (std::size_t i = 0; i < kFamilies.size(); ++i)
    names[i] = {kFamilies[i].family, kFamilies[i].name};
  names[kFamilies.size()] = {Family::kLlama, kMistral};
  return names;
}
constexpr auto kModelTypes = model_type_names();

// How a field that is no ModelConfig member of its own maps between HfConfig and ModelConfig:
// to_model sets the ModelConfig from the HfConfig (nullptr: the model has no such setting),
// from_model the field from the ModelConfig.
struct ModelRule {
  void (*to_model)(const HfConfig&, ModelConfig&);
  void (*from_model)(const ModelConfig&, HfConfig&);
};

// The member types of config.json's fields, as HfConfig members and as the ModelConfig members
// they map to (or the rule that maps them). The two lists keep the same order (checked below).
using HfMember = std::variant<std::int64_t HfConfig::*, double HfConfig::*,
                              std::optional<double> HfConfig::*, std::string HfConfig::*,
                              bool HfConfig::*, PosEncoding HfConfig::*, Family HfConfig::*>;
using ModelMember =
    std::variant<ModelRule, std::int64_t ModelConfig::*, double ModelConfig::*,
                 std::optional<double> ModelConfig::*, std::string ModelConfig::*,
                 bool ModelConfig::*, PosEncoding ModelConfig::*, Family ModelConfig::*>;

// The value an absent key means, given the fields read before it (the family first); null: the
// key is required.
using Fallback = json (*)(const HfConfig&);

// The values of a number that validate_hf_config takes (an integer's are its range).
enum class Check { kAny, kPositive, kProbability };

// One field of config.json.
struct HfField {
  const char* gpt2_key;   // as GPT-2 and GPT-J spell it; nullptr: not in their config.json
  const char* llama_key;  // as Qwen2 and Llama spell it; nullptr: not in theirs
  HfMember member;
  ModelMember model;
  Fallback fallback = nullptr;  // nullptr: required
  std::int64_t lo = 0, hi = 0;  // an integer's range
  Check check = Check::kAny;    // a number's
  bool nullable = false;        // null reads as absent
  bool gpt2_extension = false;  // GPT-2 and GPT-J write it only when it is not the default
  // Read and written by the family's rules in parse_hf_config and to_json, not by the table's
  // loops: model_type (mistral), GPT-J's rotary_dim, the sliding window.
  bool by_hand = false;
};

constexpr HfField integer(const char* gpt2, const char* llama, std::int64_t HfConfig::*member,
                          ModelMember model, std::int64_t lo, std::int64_t hi,
                          Fallback fallback = nullptr) {
  return {gpt2, llama, member, model, fallback, lo, hi};
}
constexpr HfField number(const char* gpt2, const char* llama, double HfConfig::*member,
                         ModelMember model, Check check, Fallback fallback) {
  return {gpt2, llama, member, model, fallback, 0, 0, check};
}
template <class T>
constexpr HfField value(const char* gpt2, const char* llama, T HfConfig::*member, ModelMember model,
                        Fallback fallback) {
  return {gpt2, llama, member, model, fallback};
}
constexpr HfField nullable(HfField f) {
  f.nullable = true;
  return f;
}
constexpr HfField gpt2_extension(HfField f) {
  f.gpt2_extension = true;
  return f;
}
constexpr HfField by_hand(HfField f) {
  f.by_hand = true;
  return f;
}

json gpt2_dropout(const HfConfig& c) { return c.model_type == Family::kGpt2 ? 0.1 : 0.0; }

// The activation posbias builds for a family: SwiGLU's silu, else GPT-2's tanh GELU.
const char* built_activation(Family family) {
  return traits(family).gated_mlp ? "silu" : "gelu_new";
}

// ModelConfig's rules: the rotated dims (0: the whole head), the family's own activation (others
// refused), one dropout for the three of GPT-2 (resid_pdrop's is the model's).
constexpr ModelRule kRotaryRule = {
    [](const HfConfig& hf, ModelConfig& c) {
      c.rotary_dim = hf.rotary_dim == hf.head_dim() ? 0 : hf.rotary_dim;
    },
    [](const ModelConfig& c, HfConfig& hf) { hf.rotary_dim = c.rotary() ? c.rotary_dims() : 0; }};
void check_activation(const HfConfig& hf, ModelConfig&);
void set_built_activation(const ModelConfig& c, HfConfig& hf) {
  hf.activation = built_activation(c.family);
}
constexpr ModelRule kActivationRule = {check_activation, set_built_activation};
constexpr ModelRule kDropoutRule = {
    nullptr, [](const ModelConfig& c, HfConfig& hf) { hf.attn_pdrop = hf.embd_pdrop = c.dropout; }};

// config.json's fields, each key spelled once, and every HfConfig member: read in this order (a
// default may depend on a field above it; by_hand rows by parse_hf_config), written by to_json,
// checked by validate_hf_config, and mapped to and from ModelConfig (model_config_from_hf and
// hf_config_from_model are this table's loop). Defaults are transformers'. GPT-2 and GPT-J also
// take the Llama spelling of a required integer (GPT2Config.attribute_map); both given must agree.
constexpr std::array kHfFields = {
    by_hand(
        value("model_type", "model_type", &HfConfig::model_type, &ModelConfig::family, nullptr)),
    integer("vocab_size", "vocab_size", &HfConfig::vocab_size, &ModelConfig::vocab, 1, 10'000'000),
    integer("n_embd", "hidden_size", &HfConfig::hidden_size, &ModelConfig::d_model, 1, 65536),
    integer("n_layer", "num_hidden_layers", &HfConfig::num_hidden_layers, &ModelConfig::layers, 1,
            1024),
    integer("n_head", "num_attention_heads", &HfConfig::num_attention_heads, &ModelConfig::heads, 1,
            1024),
    integer("n_positions", "max_position_embeddings", &HfConfig::max_position_embeddings,
            &ModelConfig::max_positions, 1, 10'000'000),
    gpt2_extension(integer("num_key_value_heads", "num_key_value_heads",
                           &HfConfig::num_key_value_heads, &ModelConfig::kv_heads, 1, 1024,
                           [](const HfConfig& c) { return json(c.num_attention_heads); })),
    nullable(integer("n_inner", "intermediate_size", &HfConfig::intermediate_size,
                     &ModelConfig::mlp, 1, 1'000'000,
                     [](const HfConfig& c) {
                       return llama_spelling(c.model_type) ? json() : json(4 * c.hidden_size);
                     })),
    value(
        "position_encoding", "position_encoding", &HfConfig::position_encoding, &ModelConfig::pos,
        [](const HfConfig& c) { return json(c.model_type == Family::kGpt2 ? "learned" : "rope"); }),
    value("null_sink", "null_sink", &HfConfig::null_sink, &ModelConfig::null_sink, nullptr),
    value("logn_scale", "logn_scale", &HfConfig::logn_scale, &ModelConfig::logn_scale, nullptr),
    gpt2_extension(number("rope_theta", "rope_theta", &HfConfig::rope_theta,
                          &ModelConfig::rope_theta, Check::kPositive,
                          [](const HfConfig&) { return json(10000.0); })),
    number("layer_norm_epsilon", "rms_norm_eps", &HfConfig::norm_eps, &ModelConfig::norm_eps,
           Check::kPositive,
           [](const HfConfig& c) { return json(llama_spelling(c.model_type) ? 1e-6 : 1e-5); }),
    number("initializer_range", "initializer_range", &HfConfig::initializer_range,
           &ModelConfig::init_std, Check::kPositive, [](const HfConfig&) { return json(0.02); }),
    value(
        "activation_function", "hidden_act", &HfConfig::activation, kActivationRule,
        [](const HfConfig& c) { return json(llama_spelling(c.model_type) ? "silu" : "gelu_new"); }),
    value("tie_word_embeddings", "tie_word_embeddings", &HfConfig::tie_word_embeddings,
          &ModelConfig::tie_embeddings,
          [](const HfConfig& c) { return json(c.model_type == Family::kGpt2); }),
    number("attn_pdrop", "attention_dropout", &HfConfig::attn_pdrop, kDropoutRule,
           Check::kProbability, gpt2_dropout),
    number("resid_pdrop", nullptr, &HfConfig::resid_pdrop, &ModelConfig::dropout,
           Check::kProbability, gpt2_dropout),
    number("embd_pdrop", nullptr, &HfConfig::embd_pdrop, kDropoutRule, Check::kProbability,
           gpt2_dropout),
    // GPT-J's: null or absent means the whole head; the others rotate all or none.
    by_hand(nullable(integer("rotary_dim", nullptr, &HfConfig::rotary_dim, kRotaryRule, 1, 65536))),
    by_hand(integer("sliding_window", "sliding_window", &HfConfig::sliding_window,
                    &ModelConfig::window, 1, 10'000'000)),
};

constexpr bool model_members_match() {
  for (const HfField& f : kHfFields)
    if (f.model.index() != 0 && f.model.index() != f.member.index() + 1) return false;
  return true;
}
static_assert(model_members_match(), "a row maps members of different types");

const char* key_of(const HfField& f, Family type) {
  return llama_spelling(type) ? f.llama_key : f.gpt2_key;
}

const HfField& row_of(HfMember member) {
  for (const HfField& f : kHfFields)
    if (f.member == member) return f;
  throw std::logic_error("no config.json field for this HfConfig member");
}

// The key of `member`'s field as `type`'s family spells it.
std::string key_name(HfMember member, Family type) { return key_of(row_of(member), type); }

// Every family spells these as GPT-J does.
std::string model_type_key() { return key_name(&HfConfig::model_type, Family::kGptj); }
std::string rotary_dim_key() { return key_name(&HfConfig::rotary_dim, Family::kGptj); }
std::string window_key() { return key_name(&HfConfig::sliding_window, Family::kGptj); }

template <class M>
struct MemberType {
  using type = void;  // std::monostate: no member
};
template <class T, class S>
struct MemberType<T S::*> {
  using type = T;
};
template <class M>
using MemberType_t = typename MemberType<M>::type;

std::string number_text(double v) { return json(v).dump(); }

[[noreturn]] void bad(const std::string& source, const std::string& what) {
  throw std::invalid_argument(source + ": " + what);
}

void check_range(const std::string& source, const std::string& field, std::int64_t v,
                 std::int64_t lo, std::int64_t hi) {
  if (v < lo || v > hi)
    bad(source, field + " = " + std::to_string(v) + " is out of range [" + std::to_string(lo) +
                    ", " + std::to_string(hi) + "]");
}

constexpr std::array<std::string_view, 9> kActivations = {
    "gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh", "quick_gelu", "relu",
    "silu", "swish",    "tanh"};

// Typed access to the top-level object; absent keys give nullopt, wrong types throw.
class Fields {
 public:
  Fields(const json& root, const std::string& source) : root_(root), source_(source) {}

  const std::string& source() const { return source_; }

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

// Reads field `f` into `c` as `c`'s family spells it (its model_type is read first).
void read_field(const HfField& f, const Fields& in, HfConfig& c) {
  const bool llama = llama_spelling(c.model_type);
  const char* key = key_of(f, c.model_type);
  if (key == nullptr || f.by_hand) return;
  const json fallback = f.fallback == nullptr ? json() : f.fallback(c);
  std::visit(
      [&](auto member) {
        using T = MemberType_t<decltype(member)>;
        auto& field = c.*member;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          if (!fallback.is_null()) {
            field = in.integer(key, f.lo, f.hi, f.nullable).value_or(fallback.get<T>());
            return;
          }
          const bool aliased =
              !llama && f.llama_key != nullptr && std::strcmp(key, f.llama_key) != 0;
          field = in.required_integer(key, aliased ? f.llama_key : nullptr, f.lo, f.hi);
        } else if constexpr (std::is_same_v<T, std::optional<double>>) {
          if (in.find(key) != nullptr) field = in.number(key, 0.0);
        } else if constexpr (std::is_same_v<T, double>) {
          field = in.number(key, fallback.get<double>());
        } else if constexpr (std::is_same_v<T, std::string>) {
          field = in.string(key, fallback.get<std::string>());
        } else if constexpr (std::is_same_v<T, bool>) {
          field = in.boolean(key, fallback.get<bool>());
        } else if constexpr (std::is_same_v<T, Family>) {
          throw std::logic_error("model_type is read by parse_hf_config");
        } else {
          static_assert(std::is_same_v<T, PosEncoding>);
          const std::string name = in.string(key, fallback.get<std::string>());
          try {
            field = parse_pos_encoding(name);
          } catch (const std::invalid_argument&) {
            bad(in.source(), std::string(key) + " '" + name + "' is not supported (expected " +
                                 pos_encoding_names() + ")");
          }
        }
      },
      f.member);
}

// Field `f`'s value as to_json writes it for `c`'s family; nothing when that family's file has no
// such key, an optional holds no value, or a GPT-2 extension holds its default.
std::optional<json> written_field(const HfField& f, const HfConfig& c) {
  if (key_of(f, c.model_type) == nullptr || f.by_hand) return std::nullopt;
  const std::optional<json> v = std::visit(
      [&](auto member) -> std::optional<json> {
        using T = MemberType_t<decltype(member)>;
        if constexpr (IsOptional<T>::value) {
          if (!(c.*member).has_value()) return std::nullopt;
          return FieldCodec<typename T::value_type>::write(*(c.*member));
        } else {
          return FieldCodec<T>::write(c.*member);
        }
      },
      f.member);
  if (v && f.gpt2_extension && !llama_spelling(c.model_type) && *v == f.fallback(c))
    return std::nullopt;
  return v;
}

// Maps every row between HfConfig and ModelConfig, from `from` to `to`: a member copied, a rule
// applied.
template <class From, class To>
void copy_mapped(const From& from, To& to) {
  constexpr bool to_model = std::is_same_v<From, HfConfig>;
  for (const HfField& f : kHfFields)
    std::visit(
        [&](auto hf, auto model) {
          if constexpr (std::is_same_v<decltype(model), ModelRule>) {
            if constexpr (to_model) {
              if (model.to_model != nullptr) model.to_model(from, to);
            } else if (model.from_model != nullptr) {
              model.from_model(from, to);
            }
          } else if constexpr (std::is_same_v<MemberType_t<decltype(hf)>,
                                              MemberType_t<decltype(model)>>) {
            if constexpr (to_model)
              to.*model = from.*hf;
            else
              to.*hf = from.*model;
          }
        },
        f.member, f.model);
}

// kActivationRule's to_model: posbias builds the family's own activation only.
void check_activation(const HfConfig& hf, ModelConfig&) {
  const bool gelu_tanh = hf.activation == "gelu_new" || hf.activation == "gelu_pytorch_tanh" ||
                         hf.activation == "gelu_fast";
  const char* built = built_activation(hf.model_type);
  if (traits(hf.model_type).gated_mlp ? hf.activation != built : !gelu_tanh) {
    throw std::invalid_argument(key_name(&HfConfig::activation, hf.model_type) + " '" +
                                hf.activation + "' is not supported for " +
                                to_string(hf.model_type) + " (posbias builds " + built + ")");
  }
}

// Llama's and Qwen2's options that would silently change the model if ignored: a rope scaling
// other than the default, biases Llama can switch on, a head_dim of its own.
void refuse_unbuilt_features(const Fields& in, const HfConfig& c, const std::string& src) {
  if (const json* s = in.find(kRopeScaling); s != nullptr && !s->is_null()) {
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
      bad(src, std::string(kRopeScaling) + " = " + brief_json(*s) +
                   " is not supported (rope type " + type +
                   "); posbias implements plain RoPE: rope_scaling null or rope_type default");
  }
  if (c.model_type != Family::kLlama) return;
  for (const char* field : {kAttentionBias, kMlpBias})
    if (in.boolean(field, false))
      bad(src, std::string(field) + " = true is not supported; posbias builds Llama without " +
                   (field == kMlpBias ? "MLP" : "attention") + " biases");
  if (const auto head_dim = in.integer(kHeadDim, 1, 65536, /*nullable=*/true);
      head_dim && *head_dim * c.num_attention_heads != c.hidden_size)
    bad(src, std::string(kHeadDim) + " = " + std::to_string(*head_dim) +
                 " is not supported; posbias builds head_dim = " +
                 key_name(&HfConfig::hidden_size, c.model_type) + " / " +
                 key_name(&HfConfig::num_attention_heads, c.model_type) + " = " +
                 std::to_string(c.hidden_size) + " / " + std::to_string(c.num_attention_heads));
}

}  // namespace

void validate_hf_config(const HfConfig& c, const std::string& source) {
  const std::string family = to_string(c.model_type);  // throws on a bad enum
  to_string(c.position_encoding);
  const Family type = c.model_type;
  for (const HfField& f : kHfFields)
    if (const auto* member = std::get_if<std::int64_t HfConfig::*>(&f.member); member && !f.by_hand)
      check_range(source, key_of(f, type), c.**member, f.lo, f.hi);
  const std::string hidden = key_name(&HfConfig::hidden_size, type);
  const std::string heads = key_name(&HfConfig::num_attention_heads, type);
  if (c.hidden_size % c.num_attention_heads != 0)
    bad(source, heads + " = " + std::to_string(c.num_attention_heads) + " does not divide " +
                    hidden + " = " + std::to_string(c.hidden_size));
  if (c.num_attention_heads % c.num_key_value_heads != 0)
    bad(source, key_name(&HfConfig::num_key_value_heads, type) + " = " +
                    std::to_string(c.num_key_value_heads) + " does not divide " + heads + " = " +
                    std::to_string(c.num_attention_heads));
  const std::int64_t head_dim = c.head_dim();
  if (traits(c.position_encoding).rotary) {
    if (c.rotary_dim < 1 || c.rotary_dim > head_dim)
      bad(source, rotary_dim_key() + " = " + std::to_string(c.rotary_dim) +
                      " is outside [1, head_dim = " + std::to_string(head_dim) +
                      "] (head_dim = " + hidden + " / " + heads + ")");
    if (c.rotary_dim % 2 != 0)
      bad(source, rotary_dim_key() + " = " + std::to_string(c.rotary_dim) +
                      " must be even (RoPE rotates pairs of dimensions)" +
                      (c.model_type == Family::kGptj ? "" : "; here rotary_dim = head_dim"));
  } else if (c.rotary_dim != 0) {
    bad(source, rotary_dim_key() + " = " + std::to_string(c.rotary_dim) +
                    " but position_encoding is " + to_string(c.position_encoding) + ", not rope");
  }
  for (const HfField& f : kHfFields) {
    const auto* member = std::get_if<double HfConfig::*>(&f.member);
    if (member == nullptr || key_of(f, type) == nullptr) continue;
    const double v = c.**member;
    if (f.check == Check::kPositive && (!std::isfinite(v) || v <= 0))
      bad(source, key_of(f, type) + (" = " + number_text(v)) + " must be finite and > 0");
    if (f.check == Check::kProbability && !(v >= 0 && v < 1))
      bad(source, key_of(f, type) + (" = " + number_text(v)) + " must be in [0, 1)");
  }
  if (llama_spelling(type) && (c.resid_pdrop != 0 || c.embd_pdrop != 0))
    bad(source, family + " has no " + key_name(&HfConfig::resid_pdrop, Family::kGpt2) + " or " +
                    key_name(&HfConfig::embd_pdrop, Family::kGpt2) + "; they must be 0");
  bool known_activation = false;
  for (const auto a : kActivations) known_activation = known_activation || a == c.activation;
  if (!known_activation) {
    std::string list;
    for (const auto a : kActivations) list += (list.empty() ? "" : ", ") + std::string(a);
    bad(source, key_name(&HfConfig::activation, type) + " '" + c.activation +
                    "' is not supported for " + family + " (expected one of " + list + ")");
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

  const std::string type_key = model_type_key();
  const json* type = in.find(type_key.c_str());
  if (type == nullptr) bad(src, "required field " + type_key + " is missing");
  if (!type->is_string()) bad(src, type_key + " must be a string, got " + brief_json(*type));
  HfConfig c;
  const std::string type_name = type->get<std::string>();
  const bool mistral = type_name == kMistral;
  const auto row = std::find_if(kModelTypes.begin(), kModelTypes.end(),
                                [&](const auto& r) { return r.second == type_name; });
  if (row == kModelTypes.end())
    bad(src, type_key + " " + brief_json(*type) + " is not supported (expected " +
                 name_list(kModelTypes) + ")");
  c.model_type = row->first;
  for (const HfField& f : kHfFields) read_field(f, in, c);
  // GPT-J rotates rotary_dim dimensions of each head (null: all); the others all or none.
  std::optional<std::int64_t> rotary;
  if (const HfField& f = row_of(&HfConfig::rotary_dim); c.model_type == Family::kGptj)
    rotary = in.integer(f.gpt2_key, f.lo, f.hi, f.nullable);
  c.rotary_dim = !traits(c.position_encoding).rotary ? 0
                 : rotary                            ? *rotary
                                                     : c.hidden_size / c.num_attention_heads;

  if (llama_spelling(c.model_type)) refuse_unbuilt_features(in, c, src);
  const std::string window = window_key();
  const HfField& window_row = row_of(&HfConfig::sliding_window);
  if (c.model_type == Family::kLlama) {
    // Llama has no window (transformers ignores use_sliding_window there); Mistral windows every
    // layer, 4096 keys unless its config says otherwise (null: none).
    if (in.boolean(kUseSlidingWindow, false))
      bad(src, std::string(kUseSlidingWindow) +
                   " is not a Llama field (transformers ignores it); a windowed Llama is "
                   "model_type mistral with sliding_window");
    if (mistral)
      c.sliding_window =
          in.find(window.c_str()) == nullptr
              ? 4096
              : in.integer(window.c_str(), window_row.lo, window_row.hi, true).value_or(0);
  } else if (in.boolean(kUseSlidingWindow, false)) {
    c.sliding_window = in.required_integer(window.c_str(), nullptr, window_row.lo, window_row.hi);
    // Qwen2 windows only the layers from max_window_layers on; posbias windows every layer.
    if (in.integer(kMaxWindowLayers, 0, 1024).value_or(0) != 0)
      bad(src, std::string(kUseSlidingWindow) + " with " + kMaxWindowLayers +
                   " > 0 is not supported; posbias windows every layer (" + kMaxWindowLayers +
                   " 0)");
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
             ? std::string(kMistral)
             : std::string(to_string(c.model_type));
}

json to_json(const HfConfig& c) {
  validate_hf_config(c, "to_json");
  json j = json::object();
  for (const HfField& f : kHfFields)
    if (const std::optional<json> v = written_field(f, c)) j[key_of(f, c.model_type)] = *v;
  j[model_type_key()] = hf_model_type(c);
  if (c.sliding_window > 0 && c.model_type != Family::kLlama) {
    j[kUseSlidingWindow] = true;
    j[window_key()] = c.sliding_window;
    j[kMaxWindowLayers] = 0;
  }
  switch (c.model_type) {
    case Family::kQwen2:
      j[kArchitectures] = json::array({"Qwen2ForCausalLM"});
      break;
    case Family::kLlama:  // a window makes it a Mistral
      if (c.sliding_window > 0) {
        j[kArchitectures] = json::array({"MistralForCausalLM"});
        j[window_key()] = c.sliding_window;
      } else {
        j[kArchitectures] = json::array({"LlamaForCausalLM"});
        j[kAttentionBias] = false;
        j[kMlpBias] = false;
      }
      break;
    case Family::kGpt2:
    case Family::kGptj:
      j[kArchitectures] =
          json::array({c.model_type == Family::kGpt2 ? "GPT2LMHeadModel" : "GPTJForCausalLM"});
      j[kNCtx] = c.max_position_embeddings;
      if (c.model_type == Family::kGptj)
        j[rotary_dim_key()] = c.rotary_dim > 0 ? json(c.rotary_dim) : json(nullptr);
      break;
  }
  return j;
}

ModelConfig model_config_from_hf(const HfConfig& hf) {
  ModelConfig c;
  copy_mapped(hf, c);
  c.validate();
  return c;
}

HfConfig hf_config_from_model(const ModelConfig& c) {
  HfConfig hf;
  copy_mapped(c, hf);
  return hf;
}

std::vector<std::string> hf_config_keys() {
  std::vector<std::string> keys;
  for (const HfField& f : kHfFields)
    for (const char* key : {f.gpt2_key, f.llama_key})
      if (key != nullptr && std::find(keys.begin(), keys.end(), key) == keys.end())
        keys.push_back(key);
  return keys;
}

}  // namespace posbias
