// `posbias eval` on a kv run: exact-match accuracy by the queried pair's depth × the context
// length (stats/depth_accuracy.h), RULER's effective length and the U verdict.
//   measure_kv_eval(KvEvalOptions) → KvEvalResult; to_json, kv_eval_columns, the heatmap and the
//   accuracy-against-depth figures; run_kv_eval writes them.
// Cell (length L, depth d): `count` examples with n = kv_pairs(L) pairs (the most that fit) and
// the queried pair i = round(d/100 · (n − 1)) (halves away from zero), example e drawn from the
// stream keyed by (seed, L, d in thousandths of a percent, e): a cell is the same whatever else
// is measured.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/retrieval/depth_eval.h"
#include "posbias/core/plot.h"
#include "posbias/tasks/kv_task.h"

namespace posbias {

// The options of eval by depth (depth_eval.h); `run` is a `posbias train --task kv` run.
using KvEvalOptions = DepthEvalOptions;

struct KvEvalResult : DepthEvalRun {
  std::vector<int> pairs;  // per length: n
};

// True when RUN/train.json is a kv run.
bool is_kv_run(const std::string& run_dir);

// The lengths evaluated: options.lengths, or the training length, 2× and 4× (with learned
// positions only those the position table holds). Ascending.
std::vector<int> kv_eval_lengths(const KvEvalOptions& options, const TrainConfig& config);

// Checks the options (std::invalid_argument naming the bad one), loads the run, evaluates.
KvEvalResult measure_kv_eval(const KvEvalOptions& options, const std::filesystem::path& checkpoint);

// The file's record (DepthEvalRecord, depth_eval_record.h) with its kv fields: pairs,
// queried_rule; and its JSON.
DepthEvalRecord kv_eval_record(const KvEvalResult& result);
nlohmann::json to_json(const KvEvalResult& result);
// The CSV's columns, a row per cell (depth_cell_indices): its length, pairs, depth and queried
// pair, then depth_cell_columns; they read `result`, which must outlive them.
std::vector<CsvColumn<DepthCellIndex>> kv_eval_columns(const KvEvalResult& result);
// The figures of a result as its file holds it (eval --plot's, and eval --redraw's from the file;
// std::invalid_argument naming a missing or inconsistent field). Depth (y) × length (x),
// accuracy colour 0..1:
Figure kv_heatmap_figure(const DepthEvalRecord& record);
// Accuracy against depth with its Wilson band and the chance level, one panel per length:
Figure kv_depth_figure(const DepthEvalRecord& record);

// measure_kv_eval at each checkpoint options.checkpoints selects (in training order), written by
// write_depth_eval.
std::vector<KvEvalResult> run_kv_eval(const KvEvalOptions& options);

}  // namespace posbias
