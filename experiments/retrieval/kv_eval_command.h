// `posbias eval` on a kv run: exact-match accuracy by the queried pair's depth × the context
// length (train/depth_accuracy.h), RULER's effective length and the U verdict.
//   measure_kv_eval(KvEvalOptions) → KvEvalResult; to_json, kv_eval_csv, the heatmap and the
//   accuracy-against-depth figures; run_kv_eval writes them.
// Cell (length L, depth d): `count` examples with n = kv_pairs(L) pairs (the most that fit) and
// the queried pair i = round(d/100 · (n − 1)) (halves away from zero), example e drawn from the
// stream keyed by (seed, L, d in thousandths of a percent, e): a cell is the same whatever else
// is measured.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/model/attention_path.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/depth_accuracy.h"
#include "posbias/train/train_config.h"

namespace posbias {

struct KvEvalOptions {
  std::string run;         // RUN_DIR of `posbias train --task kv`
  std::string checkpoint;  // empty = the run's latest
  std::vector<double> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  std::vector<std::int64_t> lengths;  // empty = the training length, 2× and 4×
  std::int64_t count = 100;           // examples per cell
  std::uint64_t seed = 1;
  double threshold = kRulerThreshold;  // RULER's effective length
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  std::string json;  // empty = stdout
  std::string csv;   // one row per cell
  std::string plot;  // figure stem: STEM-heatmap and STEM-depth
};

struct KvEvalResult {
  std::string run, checkpoint;
  std::int64_t step = 0;
  TrainConfig config;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::vector<int> pairs;  // per length: n
  DepthAccuracy accuracy;
  std::vector<AttentionPath> attention;  // per length
  double seconds = 0;
};

// True when RUN/train.json is a kv run.
bool is_kv_run(const std::string& run_dir);

// The lengths evaluated: options.lengths, or the training length, 2× and 4× (with learned
// positions only those the position table holds). Ascending.
std::vector<int> kv_eval_lengths(const KvEvalOptions& options, const TrainConfig& config);

// Checks the options (std::invalid_argument naming the bad one), loads the run, evaluates.
KvEvalResult measure_kv_eval(const KvEvalOptions& options);

// {"task": "kv", "run", "checkpoint", "step", "count", "seed", "config" (the run's), "pairs",
//  "chance_rule", "attention", "seconds"} and every field of to_json(DepthAccuracy).
nlohmann::json to_json(const KvEvalResult& result);
// length,pairs,depth,queried,n,correct,accuracy,lo,hi,chance: one row per cell.
std::string kv_eval_csv(const KvEvalResult& result);
// Depth (y) × length (x), accuracy colour 0..1.
Figure kv_heatmap_figure(const KvEvalResult& result);
// Accuracy against depth with its Wilson band and the chance level, one panel per length.
Figure kv_depth_figure(const KvEvalResult& result);

KvEvalResult run_kv_eval(const KvEvalOptions& options);

}  // namespace posbias
