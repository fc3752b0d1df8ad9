// The mitigations section's remedies on kv (docs/mitigations.md): the baseline (the preset's
// kv config) and each trained remedy (the same config with one option) trained for seeds
// 0..seeds−1 (`train`; seed s of every arm draws the same data), each evaluated by depth ×
// length (`eval`, the same examples for every arm) and its answer's influence measured at the
// last checkpoint on eval's first examples (`birth --run RUN --inputs kv --target answer`); the
// inference-time remedies are `eval` options on the baseline runs. Every remedy is paired with
// the baseline by seed: exact match at the middle depth (50%) at L and 2L, the depth-averaged
// exact match at L, the log10 change of the example's first 8 tokens' share of the influence
// (after a BOS sink, the tokens after it), training seconds per step.
// A verdict needs every baseline seed's depth-averaged exact match at L to be at least 0.5 (the
// docs' learned gate). Files: DIR/ARM/seedK (the run, resumed if a previous reproduce was
// killed), seedK-eval.json, seedK-influence.json, and seedK-eval-REMEDY.json on the baseline.
#pragma once

#include <filesystem>
#include <vector>

#include "experiments/mitigations/presets.h"
#include "experiments/mitigations/remedy_row.h"

namespace posbias {

// The docs' learned gate on the baseline's depth-averaged exact match at L.
inline constexpr double kLearnedGate = 0.5;

struct KvRemedies {
  std::vector<RemedyRow> rows;            // the trained remedies, then the inference-time ones
  std::vector<double> baseline_accuracy;  // per seed: the depth-averaged exact match at L
};

// Whether every baseline seed's depth-averaged exact match at L reached kLearnedGate.
bool baseline_learned(const std::vector<double>& baseline_accuracy);

KvRemedies measure_kv_remedies(const std::filesystem::path& dir, const MitigationsPreset& preset);

}  // namespace posbias
