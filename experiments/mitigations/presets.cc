#include "experiments/mitigations/presets.h"

#include <fmt/format.h>

#include <cmath>

#include "experiments/retrieval/presets.h"
#include "experiments/retrieval/retrieval_flags.h"

namespace posbias {
namespace {

BirthOptions birth_shape(const std::string& arch, std::int64_t layers, std::int64_t d_model,
                         std::int64_t kv_heads, std::int64_t mlp, std::int64_t length, int seeds) {
  BirthOptions o;
  o.arch = arch;
  o.layers = layers;
  o.d_model = d_model;
  o.heads = 4;
  o.kv_heads = kv_heads;
  o.mlp = mlp;
  o.length = length;
  o.seeds = seeds;
  o.method = JacobianMethod::kExact;
  return o;
}

// The two families the docs measure at birth, at one shape (Qwen2 with 2 KV heads).
std::vector<MitigationsBirthModel> families_at(std::int64_t layers, std::int64_t d_model,
                                               std::int64_t length, int seeds) {
  return {{"GPT-2 style", "gpt2", birth_shape("gpt2", layers, d_model, 0, 0, length, seeds)},
          {"Qwen2 style", "qwen2", birth_shape("qwen2", layers, d_model, 2, 0, length, seeds)}};
}

// 1/ln L to 4 decimals: the log-n factor is 1 at the training length's last rows.
double logn_scale_at(std::int64_t length) {
  return std::round(1e4 / std::log(static_cast<double>(length))) / 1e4;
}

// Each trained remedy (one option on the baseline) and each inference-time one, at the strengths
// the docs' runs use: λ = 3, b = 2, s = 1/ln L, a position range of 4L, PI and NTK at 2, full
// calibration.
void add_remedies(MitigationsPreset& p) {
  const TrainConfig& base = p.baseline;
  const double s = logn_scale_at(base.length);
  const std::int64_t range = 4 * base.length;
  auto remedy = [&](std::string name, std::string folder, std::string flag, auto set) {
    TrainConfig c = base;
    set(c);
    c.finalize();
    p.trained.push_back({std::move(name), std::move(folder), std::move(flag), c});
  };
  remedy("BOS sink", "sink", "--sink", [](TrainConfig& c) { c.sink = true; });
  remedy("null sink", "null-sink", fmt::format("--null-sink {:g}", p.null_sink),
         [&](TrainConfig& c) { c.null_sink = p.null_sink; });
  remedy("middle-weighted loss", "middle-weight", "--middle-weight 3",
         [](TrainConfig& c) { c.middle_weight = 3.0; });
  remedy("log-n scaling, trained", "logn", fmt::format("--logn-scale {:g}", s),
         [&](TrainConfig& c) { c.logn_scale = s; });
  remedy("randomized positions", "random-positions", fmt::format("--random-positions {}", range),
         [&](TrainConfig& c) { c.random_positions = range; });
  remedy("PoSE", "pose", fmt::format("--pose {}", range), [&](TrainConfig& c) { c.pose = range; });
  // Each at inference: its eval flags written by eval's field table.
  auto inference = [&](std::string name, std::string file, std::optional<RopeScaling> rope,
                       std::optional<double> logn, std::optional<double> calibrate) {
    DepthEvalOptions with;
    with.rope_scaling = rope, with.logn_scale = logn, with.calibrate = calibrate;
    p.inference.push_back({std::move(name), std::move(file),
                           depth_eval_flags_beside(DepthEvalOptions{}, with), rope, logn,
                           calibrate});
  };
  inference("RoPE position interpolation", "pi2", RopeScaling{RopeScalingKind::kPi, 2.0},
            std::nullopt, std::nullopt);
  inference("NTK-aware RoPE scaling", "ntk2", RopeScaling{RopeScalingKind::kNtk, 2.0}, std::nullopt,
            std::nullopt);
  inference("log-n scaling at evaluation", "logn", std::nullopt, s, std::nullopt);
  inference("attention calibration", "calibrate", std::nullopt, std::nullopt, 1.0);
}

}  // namespace

MitigationsPreset MitigationsPreset::quick() {
  MitigationsPreset p;
  p.name = "quick";
  p.birth_models = families_at(/*layers=*/4, /*d_model=*/64, /*length=*/64, /*seeds=*/4);
  p.bos = birth_shape("qwen2", 2, 32, 4, 128, /*length=*/48, /*seeds=*/4);
  p.design_windows = {0, 8, 16, 32};
  p.design_alibi_heads = {4};
  p.design_null_sinks = {std::nullopt, 2.0};
  p.design_sinks = {0};
  p.design_alphas = {};
  // The retrieval section's quick qwen2 RoPE configuration, smaller and far shorter.
  p.baseline = RetrievalPreset::quick().runs.front().config;
  p.baseline.d_model = 32, p.baseline.mlp = 64;
  p.baseline.steps = 80, p.baseline.batch = 16, p.baseline.warmup = 10;
  p.baseline.eval_every = 40, p.baseline.checkpoint_every = 80;
  p.baseline.eval_windows = 16;
  p.baseline.finalize();
  add_remedies(p);
  p.seeds = 2;
  p.depths = {0, 50, 100};
  p.lengths = {16, 32};
  p.eval_count = 16;
  p.influence_depths = {0, 50, 100};
  p.influence_per_depth = 4;
  return p;
}

MitigationsPreset MitigationsPreset::full() {
  MitigationsPreset p;
  p.name = "full";
  p.birth_models = families_at(/*layers=*/12, /*d_model=*/128, /*length=*/128, /*seeds=*/8);
  p.bos = birth_shape("qwen2", 4, 64, 4, 256, /*length=*/128, /*seeds=*/8);
  p.design_windows = {0, 12, 16, 24, 32, 48, 64};
  p.design_alibi_heads = {4};
  p.design_null_sinks = {std::nullopt, 0.0, 2.0, 4.0};
  p.design_sinks = {0, 0.05, 0.1, 0.2};
  p.design_alphas = {0.1, 0.22, 0.43, 0.75};
  // The retrieval bench's qwen2 RoPE configuration (docs/retrieval.md), as the docs' kv remedies.
  p.baseline = RetrievalPreset::full().runs.front().config;
  add_remedies(p);
  p.seeds = 3;
  p.lengths = {32, 64, 128};
  p.eval_count = 100;
  p.influence_depths = {0, 33, 67, 100};
  p.influence_per_depth = 16;
  return p;
}

std::string MitigationsPreset::describe() const {
  const BirthOptions& b = birth_models.front().options;
  const TrainConfig& c = baseline;
  return fmt::format(
      "at birth {} layers, d {}, L {}, {} seeds (the BOS sink: {} layers, d {}, W {}); kv "
      "qwen2 RoPE {} layers, d {}, L {}, {} steps, {} seeds per arm, {} examples per eval cell",
      b.layers, b.d_model, b.length, b.seeds, bos.layers, bos.d_model, bos.length, c.layers,
      c.d_model, c.length, c.steps, seeds, eval_count);
}

}  // namespace posbias
