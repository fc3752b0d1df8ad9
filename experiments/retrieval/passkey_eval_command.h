// `posbias eval --run RUN --depths ... --lengths ...` on a passkey run (a text run trained with
// --needle-fraction above 0): exact match of the passkey's digits by the queried needle's depth ×
// the context length (train/depth_accuracy.h), RULER's effective length and the U verdict, with
// the kv eval's figures (depth_figures.h).
//   measure_passkey_eval(PasskeyEvalOptions) → PasskeyEvalResult; to_json, passkey_eval_csv,
//   the figures; run_passkey_eval writes them.
// Cell (length L, depth d): `count` examples of passkey_depth_example (tasks/passkey_task.h):
// the queried needle at offset round(d/100 · F) of the F held-out Brown ids, the distractors at
// uniform depths, example e drawn from the stream keyed by (seed, L, d in thousandths of a
// percent, e): a cell is the same whatever else is measured.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/model/attention_path.h"
#include "posbias/train/depth_accuracy.h"
#include "posbias/train/train_config.h"

namespace posbias {

struct PasskeyEvalOptions {
  std::string run;         // RUN_DIR of `posbias train --task text --needle-fraction F`
  std::string checkpoint;  // empty = the run's latest
  std::vector<double> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  std::vector<std::int64_t> lengths;  // empty = the training length, 2× and 4× (learned: ≤ table)
  std::int64_t count = 100;           // examples per cell
  int needles = 0;                    // 0 = the run's
  std::uint64_t seed = 1;
  double threshold = kRulerThreshold;
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  std::string json;  // empty = stdout
  std::string csv;   // one row per cell
  std::string plot;  // figure stem: STEM-heatmap and STEM-depth
};

struct PasskeyEvalResult {
  std::string run, checkpoint;
  std::int64_t step = 0;
  TrainConfig config;
  std::int64_t count = 0;
  int needles = 0;
  std::uint64_t seed = 0;
  DepthAccuracy accuracy;
  std::vector<AttentionPath> attention;  // per length
  double seconds = 0;
};

// True when RUN/train.json is a text run with needle_fraction > 0.
bool is_passkey_run(const std::string& run_dir);

// Checks the options (std::invalid_argument naming the bad one: depths outside 0..100, lengths
// past a learned position table, needles that do not fit a length), loads the run, evaluates.
PasskeyEvalResult measure_passkey_eval(const PasskeyEvalOptions& options);

// {"task": "passkey", "run", "checkpoint", "step", "count", "needles", "seed", "config",
//  "chance_rule", "depth_rule", "attention", "seconds"} and every field of to_json(DepthAccuracy).
nlohmann::json to_json(const PasskeyEvalResult& result);
// length,depth,n,correct,accuracy,lo,hi,chance: one row per cell.
std::string passkey_eval_csv(const PasskeyEvalResult& result);
Figure passkey_heatmap_figure(const PasskeyEvalResult& result);
Figure passkey_depth_figure(const PasskeyEvalResult& result);

PasskeyEvalResult run_passkey_eval(const PasskeyEvalOptions& options);

}  // namespace posbias
