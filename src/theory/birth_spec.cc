#include "posbias/theory/birth_spec.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/arch_codecs.h"
#include "posbias/arch/presets.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/flag_rows.h"
#include "posbias/core/parse.h"
#include "posbias/core/query_position.h"
#include "posbias/theory/theory_codecs.h"

namespace posbias {
namespace {

constexpr EnumNames<BirthInput, 2> kBirthInputNames{
    {{BirthInput::kGaussian, "gaussian"}, {BirthInput::kTokens, "tokens"}}};
constexpr EnumNames<BirthInit, 2> kBirthInitNames{
    {{BirthInit::kHf, "hf"}, {BirthInit::kUnscaled, "unscaled"}}};

}  // namespace

BirthInput parse_birth_input(const std::string& name) {
  return value_of(kBirthInputNames, name, "--input");
}

std::string to_string(BirthInput input) { return std::string(name_of(kBirthInputNames, input)); }

BirthInit parse_birth_init(const std::string& name) {
  return value_of(kBirthInitNames, name, "--init");
}

std::string to_string(BirthInit init) { return std::string(name_of(kBirthInitNames, init)); }

struct BirthInputNames {
  static std::string name(BirthInput i) { return to_string(i); }
  static BirthInput parse(const std::string& s) { return parse_birth_input(s); }
};
struct BirthInitNames {
  static std::string name(BirthInit i) { return to_string(i); }
  static BirthInit parse(const std::string& s) { return parse_birth_init(s); }
};
template <>
struct FieldCodec<BirthInput> : EnumCodec<BirthInput, BirthInputNames> {};
template <>
struct FieldCodec<BirthInit> : EnumCodec<BirthInit, BirthInitNames> {};

namespace {

using Row = FieldRow<BirthSpec>;

// An enum field (or an optional one) whose flag takes one of Names' names; an unknown name is
// refused with Names' own message.
template <class Names, class T>
Row named(std::string name, T BirthSpec::*member, std::string help) {
  Row row = field(std::move(name), member, std::move(help));
  row.from_flag = [](const std::string& text) {
    Names::parse(text);
    return nlohmann::json(text);
  };
  return row;
}

// The query's position (0-based), or "last" for the last token (the field unset).
Row query_row() {
  Row row = field("query", &BirthSpec::query, query_position_help(), query_position_type());
  row.from_flag = [flag = row.flag](const std::string& text) {
    const std::optional<std::int64_t> position = parse_query_position(text, flag);
    return position ? nlohmann::json(*position) : nlohmann::json();
  };
  return row;
}

// --arch's help from the preset table: the presets, the families in their reference presets'
// order, and each reference preset whose name is not its family's.
std::string arch_help() {
  std::string presets, families, references;
  std::vector<Family> seen;
  for (const ModelPreset& p : model_presets()) {
    presets += (presets.empty() ? "" : ", ") + std::string(p.name);
    const Family family = p.family;
    if (std::find(seen.begin(), seen.end(), family) != seen.end()) continue;
    seen.push_back(family);
    families += (families.empty() ? "" : ", ") + to_string(family);
    if (to_string(family) != p.name)
      references +=
          (references.empty() ? "" : ", ") + to_string(family) + ": " + std::string(p.name);
  }
  return "preset (" + presets + ") or family (" + families +
         "), which builds its reference preset (" + references + ")";
}

}  // namespace

const std::vector<FieldRow<BirthSpec>>& birth_spec_fields() {
  static const std::vector<Row> rows = {
      field("arch", &BirthSpec::arch, arch_help()),
      integer_field("layers", &BirthSpec::layers, "number of layers (0 = the preset's)"),
      integer_field("d_model", &BirthSpec::d_model, "hidden size d (0 = the preset's)"),
      integer_field("heads", &BirthSpec::heads, "attention heads (0 = the preset's)"),
      integer_field("kv_heads", &BirthSpec::kv_heads,
                    "key/value heads for grouped-query attention (0 = the preset's)"),
      integer_field("mlp", &BirthSpec::mlp, "MLP hidden width (0 = the preset's)"),
      integer_field("rotary_dim", &BirthSpec::rotary_dim,
                    "rotary dims per head (0 = the preset's; whole head if unset)"),
      named<PosEncodingNames>(
          "pos", &BirthSpec::pos,
          "positional encoding: " + pos_encoding_names() + " (default: the family's)"),
      integer_field("window", &BirthSpec::window,
                    "sliding-window attention: each query sees its W latest keys (default 0: all "
                    "earlier keys); the theory then uses the window operator",
                    1, 10'000'000),
      field("attn_init_scale", &BirthSpec::attn_init_scale,
            "multiply the attention output projection's init std by s > 0 (a stronger or "
            "weaker attention branch at init)"),
      field("null_sink", &BirthSpec::null_sink,
            "a null sink in every head: a learned sink logit initialized to b, whose e^b joins "
            "each query's softmax normalizer with no value (softmax off by one); the theory "
            "then uses the operator 1/(i + e^b)"),
      named<AlphaEstimatorNames>(
          "alpha_estimator", &BirthSpec::alpha_estimator,
          "the measured branch strength of the no-fit prediction: positions (the value path's "
          "gain over the identity path, per layer and key position), jacobian (the same, one α̂ "
          "per layer) or forward (ml-uhh's ‖a‖/(‖x‖+‖a‖) per layer)"),
      integer_field("stay_probes", &BirthSpec::stay_probes,
                    "Gaussian probes per layer behind the positions estimator's MLP gains (a Monte "
                    "Carlo estimate; more probes, less noise in the no-fit prediction); with "
                    "--rescore too",
                    1, 4096),
      integer_field("length", &BirthSpec::length, "sequence length L in tokens"),
      integer_field("seeds", &BirthSpec::seeds,
                    "seeds to average (weights and inputs redrawn per seed)"),
      named<JacobianMethodNames>(
          "method", &BirthSpec::method,
          "exact (all d cotangents in one batched backward), hutchinson (k Gaussian probes), "
          "or autograd (d separate VJPs, the slow reference)"),
      integer_field("probes", &BirthSpec::probes, "Hutchinson probes k"),
      query_row(),
      named<BirthInputNames>("input", &BirthSpec::input,
                             "gaussian (embeddings ~ N(0, init std²)) or tokens (random ids)"),
      named<BirthInitNames>(
          "init", &BirthSpec::init,
          "hf (Hugging Face init; GPT-2's residual projections / sqrt(2·layers)) or "
          "unscaled (those projections drawn like every other weight)"),
      seed_field("seed", &BirthSpec::seed, "base seed; seed s uses seed + s"),
      integer_field("bootstrap", &BirthSpec::bootstrap, "bootstrap resamples for the α CI")};
  return rows;
}

}  // namespace posbias
