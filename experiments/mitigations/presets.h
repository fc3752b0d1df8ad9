// The mitigations experiment's two scales (docs/mitigations.md), the only place their numbers
// live: quick() for `reproduce` (tiny models, few steps: the section's machinery, not a finding),
// full() for `reproduce --full` (the shapes and commands the docs page measures).
//   At birth (seconds): GPT-2 and Qwen2 style models without and with a null sink of logit b;
//   the BOS sink as `birth` at W and W + 1 tokens (the sink at position 0); inverse design (the
//   theory's search at the baseline's measured α̂, then `birth` of the best design it can build).
//   After training: the kv baseline and each trained remedy (the same config with one option
//   added), seeds 0..seeds−1 paired by seed; the inference-time remedies as `eval` options on
//   the baseline runs. Report prose is formatted from the preset that ran.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/birth/birth.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

// A model at init measured without and with each birth remedy (null sink, inverse design).
struct MitigationsBirthModel {
  std::string name;  // "GPT-2 style": what the report calls it
  std::string file;  // "gpt2": the stem of its files in the report's mitigations/birth/
  BirthOptions options;
};

// A trained remedy: the baseline's config with one option set.
struct TrainedRemedy {
  std::string name;    // "BOS sink"
  std::string folder;  // "sink": its folder in the report's mitigations/kv/
  std::string flag;    // "--sink": the option `posbias train` takes
  TrainConfig config;  // finalized; its seed is replaced by each training seed
};

// An inference-time remedy: `posbias eval` options on the baseline runs.
struct InferenceRemedy {
  std::string name;  // "RoPE position interpolation"
  std::string file;  // "pi2": its eval files' suffix
  std::string flag;  // "--rope-scaling pi:2": of eval's field table (retrieval_flags.h)
  std::optional<RopeScaling> rope_scaling;
  std::optional<double> logn_scale;
  std::optional<double> calibrate;
};

struct MitigationsPreset {
  std::string name;  // "quick" | "full"
  // At birth.
  std::vector<MitigationsBirthModel> birth_models;
  double null_sink = 2;  // b of the null-sink comparison
  BirthOptions bos;      // the BOS sink: this shape at `length` (W) and at W + 1
  // The inverse-design grid (theory design's lists; the baseline α is the plain model's
  // measured α̂, rounded to 2 decimals, as the docs' runs take it).
  std::vector<std::int64_t> design_windows;
  std::vector<int> design_alibi_heads;  // heads:N settings beside none
  std::vector<std::optional<double>> design_null_sinks;
  std::vector<double> design_sinks, design_alphas;
  // After training: the kv baseline, the trained remedies and the inference-time ones.
  TrainConfig baseline;
  std::vector<TrainedRemedy> trained;
  std::vector<InferenceRemedy> inference;
  int seeds = 3;
  std::vector<double> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent; 50 in
  std::vector<std::int64_t> lengths;                     // eval lengths: L and 2L first
  std::int64_t eval_count = 100;                         // examples per depth × length cell
  std::vector<int> influence_depths = {0, 33, 67, 100};  // answer influence inputs at L
  int influence_per_depth = 16;

  static MitigationsPreset quick();
  static MitigationsPreset full();
  // "birth: 12 layers, d 128, L 128, 8 seeds; kv: 4 layers, d 64, L 32, 8000 steps, 3 seeds".
  std::string describe() const;
};

}  // namespace posbias
