// `posbias eval --run RUN --depths ... --lengths ...` on a passkey run (a text run trained with
// --needle-fraction above 0): exact match of the passkey's digits by the queried needle's depth ×
// the context length (stats/depth_accuracy.h), RULER's effective length and the U verdict, with
// the kv eval's figures (depth_figures.h).
//   measure_passkey_eval(PasskeyEvalOptions) → PasskeyEvalResult; to_json, passkey_eval_columns,
//   the figures; run_passkey_eval writes them.
// Cell (length L, depth d): `count` examples of passkey_depth_example (tasks/passkey_task.h):
// the queried needle at offset round(d/100 · F) of the F held-out Brown ids, the distractors at
// uniform depths, example e drawn from the stream keyed by (seed, L, d in thousandths of a
// percent, e): a cell is the same whatever else is measured.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/retrieval/depth_eval.h"
#include "posbias/core/plot.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

// `run` is a `posbias train --task text --needle-fraction F` run.
struct PasskeyEvalOptions : DepthEvalOptions {
  int needles = 0;  // 0 = the run's
};

struct PasskeyEvalResult : DepthEvalRun {
  int needles = 0;
};

// True when RUN/train.json is a text run with needle_fraction > 0.
bool is_passkey_run(const std::string& run_dir);

// Checks the options (std::invalid_argument naming the bad one: depths outside 0..100, lengths
// past a learned position table, needles that do not fit a length), reads the run's corpus and
// plans the memory once, then evaluates each checkpoint in the order given.
std::vector<PasskeyEvalResult> measure_passkey_eval(const PasskeyEvalOptions& options,
                                                    const std::vector<RunCheckpoint>& checkpoints);

// The file's record (DepthEvalRecord, depth_eval_record.h) with its passkey fields: needles,
// depth_rule; and its JSON.
DepthEvalRecord passkey_eval_record(const PasskeyEvalResult& result);
nlohmann::json to_json(const PasskeyEvalResult& result);
// The CSV's columns, a row per cell (depth_cell_indices): its length, needles and depth, then
// depth_cell_columns; they read `result`, which must outlive them.
std::vector<CsvColumn<DepthCellIndex>> passkey_eval_columns(const PasskeyEvalResult& result);
// The kv eval's figures (kv_eval_command.h) of a passkey result as its file holds it.
Figure passkey_heatmap_figure(const DepthEvalRecord& record);
Figure passkey_depth_figure(const DepthEvalRecord& record);

// measure_passkey_eval at each checkpoint options.checkpoints selects (in training order), written
// by write_depth_eval.
std::vector<PasskeyEvalResult> run_passkey_eval(const PasskeyEvalOptions& options);

}  // namespace posbias
