#include "posbias/arch/config.h"

#include <cmath>
#include <stdexcept>

#include "posbias/core/enum_names.h"

namespace posbias {

namespace {

constexpr EnumNames<Family, kFamilies.size()> family_table_names() {
  EnumNames<Family, kFamilies.size()> names{};
  for (std::size_t i = 0; i < kFamilies.size(); ++i)
    names[i] = {kFamilies[i].family, kFamilies[i].name};
  return names;
}
constexpr auto kFamilyNames = family_table_names();
constexpr EnumNames<PosEncoding, kPosEncodings.size()> pos_encoding_table_names() {
  EnumNames<PosEncoding, kPosEncodings.size()> names{};
  for (std::size_t i = 0; i < kPosEncodings.size(); ++i)
    names[i] = {kPosEncodings[i].encoding, kPosEncodings[i].name};
  return names;
}
constexpr auto kPosEncodingNames = pos_encoding_table_names();

}  // namespace

std::string to_string(Family family) { return std::string(name_of(kFamilyNames, family)); }

std::string to_string(PosEncoding encoding) {
  return std::string(name_of(kPosEncodingNames, encoding));
}

Family parse_family(const std::string& name) {
  return value_of(kFamilyNames, name, "architecture family");
}

PosEncoding parse_pos_encoding(const std::string& name) {
  return value_of(kPosEncodingNames, name, "positional encoding");
}

const FamilyTraits& traits(Family family) {
  for (const FamilyTraits& t : kFamilies)
    if (t.family == family) return t;
  throw std::invalid_argument("no traits for architecture family " +
                              std::to_string(static_cast<int>(family)));
}

const PosEncodingTraits& traits(PosEncoding encoding) {
  for (const PosEncodingTraits& t : kPosEncodings)
    if (t.encoding == encoding) return t;
  throw std::invalid_argument("no traits for positional encoding " +
                              std::to_string(static_cast<int>(encoding)));
}

std::string pos_encoding_names(bool with_table) {
  std::vector<std::string_view> names;
  for (const PosEncodingTraits& t : kPosEncodings)
    if (with_table || !t.table) names.push_back(t.name);
  return name_list(names);
}

std::vector<double> ModelConfig::alibi_slopes() const {
  if (!traits(pos).slopes) return {};
  return alibi_standard_slopes(static_cast<int>(heads));
}

std::optional<std::int64_t> ModelConfig::position_limit() const {
  if (!learned_positions()) return std::nullopt;
  return max_positions;
}

double null_sink_weight(double logit) {
  if (!(std::isfinite(logit) && std::fabs(logit) <= 700)) {
    throw std::invalid_argument(
        "--null-sink needs a finite sink logit b with |b| <= 700 (e^b a finite double), got " +
        std::to_string(logit));
  }
  return std::exp(logit);
}

void ModelConfig::validate() const {
  auto check = [](bool ok, const std::string& msg) {
    if (!ok) throw std::invalid_argument(msg);
  };
  auto in_range = [&](std::int64_t v, std::int64_t lo, std::int64_t hi, const char* name) {
    check(v >= lo && v <= hi, std::string(name) + " must be in " + std::to_string(lo) + ".." +
                                  std::to_string(hi) + ", got " + std::to_string(v));
  };
  in_range(vocab, 1, 10000000, "vocab size");
  in_range(d_model, 1, 65536, "d_model");
  in_range(layers, 1, 1024, "layers");
  in_range(heads, 1, 1024, "heads");
  in_range(kv_heads, 1, 1024, "kv heads");
  in_range(mlp, 1, 1000000, "MLP width");
  in_range(max_positions, 1, 10000000, "max positions");
  check(d_model % heads == 0, "heads = " + std::to_string(heads) +
                                  " does not divide d_model = " + std::to_string(d_model));
  check(heads % kv_heads == 0, "kv heads = " + std::to_string(kv_heads) +
                                   " does not divide heads = " + std::to_string(heads));
  check(rotary_dim >= 0 && rotary_dim <= head_dim() && rotary_dim % 2 == 0,
        "rotary_dim must be even and in 0..head_dim = " + std::to_string(head_dim()) + ", got " +
            std::to_string(rotary_dim));
  check(!rotary() || rotary_dims() % 2 == 0,
        "RoPE needs an even number of rotary dims per head; head_dim = " +
            std::to_string(head_dim()));
  check(std::isfinite(rope_theta) && rope_theta > 1.0, "rope_theta must be > 1");
  check(std::isfinite(norm_eps) && norm_eps > 0 && norm_eps < 1, "norm epsilon must be in (0, 1)");
  check(std::isfinite(init_std) && init_std > 0 && init_std < 10,
        "initializer_range must be in (0, 10)");
  check(dropout >= 0.0 && dropout < 1.0, "dropout must be in [0, 1)");
  check(
      window >= 0 && window <= 10000000,
      "the attention window must be in 1..10000000 keys (0 = none), got " + std::to_string(window));
  check(std::isfinite(attn_init_scale) && attn_init_scale > 0 && attn_init_scale <= 1000,
        "the attention output's init scale must be in (0, 1000]");
  if (null_sink) null_sink_weight(*null_sink);
  if (rope_scaling) {
    check(rotary(),
          "--rope-scaling applies to a model with rotary positions (rope); this one's "
          "are " +
              to_string(pos));
    scaled_rotary(*rope_scaling, rope_theta, rotary_dims());
  }
  if (logn_scale) {
    check_logn_scale(*logn_scale);
    check(alibi_slopes().empty(),
          "--logn-scale multiplies the query-key logits; ALiBi's bias would stay unscaled, so a "
          "model with alibi positions is refused");
    check(!null_sink,
          "--logn-scale multiplies the query-key logits; a null sink's logit would stay "
          "unscaled, so a model with a null sink is refused");
  }
}

std::vector<double> alibi_standard_slopes(int heads) {
  if (heads < 1 || heads > 4096) {
    throw std::invalid_argument("ALiBi head count must be in 1..4096, got " +
                                std::to_string(heads));
  }
  std::vector<double> slopes;
  for (int h = 1; h <= heads; ++h) slopes.push_back(std::exp2(-8.0 * h / heads));
  return slopes;
}

}  // namespace posbias
