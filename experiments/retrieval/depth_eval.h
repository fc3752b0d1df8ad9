// What eval by depth × length shares, whatever the task (kv, passkey): its options, the common
// part of its result and JSON, its memory plan (per length, the attention path under the budget
// for one cell's examples held at once and the forward run a batch at a time), and what it
// writes: the JSON, the CSV (its cell columns; each task adds its own, pairs, needles, the
// queried pair, around them), the heatmap and accuracy-by-depth figures, and the one-line
// summary on stderr.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/retrieval/depth_eval_record.h"
#include "posbias/arch/attention_path.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/stats/depth_accuracy.h"

namespace posbias {

struct DepthEvalOptions {
  std::string run;  // RUN_DIR of the trained run
  CheckpointSelection checkpoints = CheckpointSelection::last();
  std::vector<double> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  std::vector<std::int64_t> lengths;  // empty = the training length, 2× and 4× (learned: ≤ table)
  std::int64_t count = 100;           // examples per cell
  std::uint64_t seed = 1;
  double threshold = kRulerThreshold;  // RULER's effective length
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  std::optional<RopeScaling> rope_scaling;  // eval --rope-scaling (rotary runs); none: as trained
  std::optional<double> logn_scale;         // eval --logn-scale s; none: as trained
  std::optional<double> calibrate;  // eval --calibrate: its strength α (kv runs); none: plain
  std::string json;                 // empty = stdout
  std::string csv;                  // one row per cell
  std::string plot;                 // figure stem: STEM-heatmap and STEM-depth
};

// The part of an eval by depth's result every task has.
struct DepthEvalRun {
  std::string run, checkpoint;
  std::int64_t step = 0;
  TrainConfig config;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  DepthAccuracy accuracy;
  std::vector<AttentionPath> attention;  // per length
  std::optional<RopeScaling> rope_scaling;
  std::optional<double> logn_scale;  // eval --logn-scale
  std::optional<double> calibrate;   // eval --calibrate: its strength α
  double seconds = 0;
};

// The fields every task has, from its measurement; the task adds chance_rule and its own.
DepthEvalRecord depth_eval_record(AnswerInputs task, const DepthEvalRun& run);

// What a length costs: the ids of one example as held, and the tokens a forward pass reads.
struct DepthEvalShape {
  std::int64_t example_ids = 0, forward_tokens = 0;
};
// One path per length; throws std::invalid_argument in one line (naming the length, and that
// shorter --lengths or a smaller --count would fit) when none fits the budget.
std::vector<AttentionPath> plan_depth_eval(const TrainConfig& config,
                                           const std::vector<int>& lengths,
                                           const std::function<DepthEvalShape(int)>& shape,
                                           const DepthEvalOptions& options);

// Scores every (length, depth) cell of one checkpoint, length-major, with progress and ETA:
// before each cell `use` gets the attention path planned for its length (run.attention, one per
// length), then `score_cell` scores it. Fills run.accuracy (measure_depth_accuracy) and
// run.seconds.
void measure_depth_cells(DepthEvalRun& run, const std::vector<int>& lengths,
                         const DepthEvalOptions& options,
                         const std::function<void(AttentionPath)>& use,
                         const std::function<DepthScore(int length, double depth)>& score_cell);

// The terminal summary of one checkpoint: "TASK at step S: exact match, mean over depths, by
// length: ..." and "effective length L (threshold T); U verdict pooled over lengths: V".
std::string depth_eval_summary(AnswerInputs task, std::int64_t step, const DepthAccuracy& accuracy);

// What eval writes of one checkpoint: its file's record (the JSON, and what the two figures draw)
// and CSV columns (a row per cell of run->accuracy).
struct DepthEvalOutput {
  const DepthEvalRun* run = nullptr;
  DepthEvalRecord record;
  std::vector<CsvColumn<DepthCellIndex>> csv;
};

// STEM-heatmap and STEM-depth of one checkpoint's result as its file holds it, kv's or passkey's
// by its task: what eval --plot draws, and eval --redraw again from the file alone.
// std::invalid_argument naming a missing or inconsistent field.
void render_depth_eval_figures(const DepthEvalRecord& record, const std::string& stem);

// One checkpoint: its JSON, CSV, STEM-heatmap and STEM-depth where the options say (json empty:
// stdout; csv and plot empty: not written), then the summary line. Several (in training order):
// eval --checkpoints' file (posbias/runfiles/eval_steps.h), the CSV with a first column `step`,
// STEM-steps (depth_steps_figure) and a summary line per checkpoint.
void write_depth_eval(AnswerInputs task, const DepthEvalOptions& to,
                      const std::vector<DepthEvalOutput>& outputs);

// Several checkpoints of one run: the mean accuracy over depths against context length, one curve
// per checkpoint coloured by its step.
Figure depth_steps_figure(AnswerInputs task, const std::vector<const DepthEvalRun*>& runs);

}  // namespace posbias
