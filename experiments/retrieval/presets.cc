#include "experiments/retrieval/presets.h"

#include <fmt/format.h>

#include <optional>

#include "posbias/tasks/kv_task.h"

namespace posbias {
namespace {

// A kv configuration at one shape: family, positional encoding (nullopt = the family's), a
// sliding window (0 = off) and the depth prior, on top of `base`.
RetrievalRun kv_run(const TrainConfig& base, Family arch, std::optional<PosEncoding> pos,
                    std::int64_t window, DepthPrior prior) {
  TrainConfig c = base;
  c.arch = arch;
  c.pos = pos;
  c.window = window;
  c.depth_prior = prior;
  c.finalize();
  const PosEncoding p = c.model_config().pos;
  RetrievalRun r;
  r.name = fmt::format("{}, {}", to_string(arch), to_string(p));
  r.folder = fmt::format("{}-{}", to_string(arch), to_string(p));
  if (window > 0) {
    r.name += fmt::format(", window {}", window);
    r.folder += fmt::format("-window{}", window);
  }
  if (prior != DepthPrior::kUniform) {
    r.name += fmt::format(", depth prior {}", depth_prior_name(prior));
    r.folder += "-" + std::string(depth_prior_name(prior));
  }
  r.config = c;
  return r;
}

// The shape every configuration of a preset shares: layers × d, MLP, length and schedule.
TrainConfig kv_shape(int layers, int d_model, int mlp, int length, std::int64_t steps, int batch,
                     double lr, std::int64_t warmup, std::int64_t eval_every) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.layers = layers, c.d_model = d_model, c.heads = 4, c.mlp = mlp;
  c.length = length;
  c.steps = steps;
  c.batch = batch;
  c.lr = lr;
  c.warmup = warmup;
  c.eval_every = eval_every;
  c.checkpoint_every = steps;  // the last step; influence is measured there
  c.log_checkpoints = 0;
  return c;
}

}  // namespace

RetrievalPreset RetrievalPreset::quick() {
  RetrievalPreset p;
  p.name = "quick";
  const TrainConfig base = kv_shape(/*layers=*/2, /*d_model=*/64, /*mlp=*/256, /*length=*/16,
                                    /*steps=*/1000, /*batch=*/32, /*lr=*/3e-3, /*warmup=*/100,
                                    /*eval_every=*/100);
  // The control: two layers of a 6-token window reach 2·(6 − 1) = 10 positions back, so the
  // answer cannot read the first pair's key at L 16 (nor any but the last pair at 2× and 4×).
  p.runs = {kv_run(base, Family::kQwen2, std::nullopt, 0, DepthPrior::kUniform),
            kv_run(base, Family::kQwen2, std::nullopt, 6, DepthPrior::kUniform)};
  p.seeds = 2;
  p.eval_count = 32;
  p.influence_per_depth = 8;
  return p;
}

RetrievalPreset RetrievalPreset::full() {
  RetrievalPreset p;
  p.name = "full";
  TrainConfig base =
      kv_shape(/*layers=*/4, /*d_model=*/64, /*mlp=*/256, /*length=*/32, /*steps=*/8000,
               /*batch=*/64, /*lr=*/1e-3, /*warmup=*/200, /*eval_every=*/250);
  base.log_checkpoints = 6;  // the influence through training, as the bench keeps it
  const Family q = Family::kQwen2, g = Family::kGpt2;
  p.runs = {kv_run(base, q, PosEncoding::kRope, 0, DepthPrior::kUniform),
            kv_run(base, g, PosEncoding::kLearned, 0, DepthPrior::kUniform),
            kv_run(base, q, PosEncoding::kLearned, 0, DepthPrior::kUniform),
            kv_run(base, g, PosEncoding::kRope, 0, DepthPrior::kUniform),
            kv_run(base, q, PosEncoding::kNone, 0, DepthPrior::kUniform),
            kv_run(base, q, PosEncoding::kAlibi, 0, DepthPrior::kUniform),
            kv_run(base, q, PosEncoding::kRope, 16, DepthPrior::kUniform),
            kv_run(base, q, PosEncoding::kRope, 0, DepthPrior::kEnds),
            kv_run(base, g, PosEncoding::kLearned, 0, DepthPrior::kEnds)};
  p.seeds = 3;
  p.eval_count = 100;
  p.colocation_depths = {0, 33, 67, 100};  // pairs 0..3 of the 4 at L 32
  p.colocation_count = 200;
  p.influence_per_depth = 16;
  return p;
}

std::string RetrievalPreset::describe() const {
  const TrainConfig& c = runs.front().config;
  return fmt::format(
      "{} configurations × {} seeds: {} layers, d {}, {} heads, MLP {}, L {} ({} pairs), batch "
      "{}, {} steps at lr {:g}; {} examples per depth × length cell",
      runs.size(), seeds, c.layers, c.d_model, c.heads, c.mlp, c.length, kv_pairs(c.length),
      c.batch, c.steps, c.lr, eval_count);
}

}  // namespace posbias
