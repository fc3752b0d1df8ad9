#include "experiments/birth/presets.h"

#include <fmt/format.h>

namespace posbias {
namespace {

// One scale: every measurement at width d and length L. mlp = 0 lets a d override rescale the
// family's MLP (4·d for GPT-2, Qwen2's ratio rounded to 8).
BirthPreset at_scale(const std::string& name, std::int64_t d, std::int64_t length,
                     std::int64_t gpt2_mlp, std::int64_t qwen2_mlp) {
  auto model = [&](const std::string& arch, std::int64_t layers, std::optional<PosEncoding> pos) {
    BirthOptions o;
    o.arch = arch;
    o.layers = layers;
    o.d_model = d;
    o.heads = 4;
    o.kv_heads = arch == "qwen2" ? 2 : 0;
    o.mlp = arch == "qwen2" ? qwen2_mlp : gpt2_mlp;
    o.pos = pos;
    o.length = length;
    o.seeds = 8;
    o.method = JacobianMethod::kExact;
    o.bootstrap = 200;
    return o;
  };
  BirthPreset p;
  p.name = name;
  p.measurements = {
      {"GPT-2 style, 12 layers", "birth_gpt2", model("gpt2", 12, std::nullopt)},
      {"Qwen2 style, 24 layers, RoPE", "birth_qwen2_rope", model("qwen2", 24, PosEncoding::kRope)},
      {"Qwen2 style, 24 layers, no RoPE", "birth_qwen2_none",
       model("qwen2", 24, PosEncoding::kNone)}};
  return p;
}

}  // namespace

BirthPreset BirthPreset::quick() { return at_scale("quick", 128, 128, 512, 352); }

BirthPreset BirthPreset::full() { return at_scale("full", 256, 256, 0, 0); }

std::string BirthPreset::describe() const {
  const BirthOptions& o = measurements.front().options;
  return fmt::format("d = {}, L = {}, {} seeds", o.d_model, o.length, o.seeds);
}

}  // namespace posbias
