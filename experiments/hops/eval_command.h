// `posbias eval`: accuracy of a trained hop model per input length and per hop, on fresh
// examples from the same generator (longer inputs = more distractors). Adds the task's
// control: Number → the seen_jumps variant (no integer beyond the trained jumps), Letter → the
// decoy variant (and how often the decoy's target is picked).
//   measure_eval(EvalOptions, checkpoint) → EvalResult; to_json, eval_figure (of its record);
//   run_eval measures every checkpoint --checkpoints selects and writes them: one checkpoint's
//   result as it always was, several in eval --checkpoints' file (posbias/runfiles/eval_steps.h)
//   with eval_steps_figure.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/hops/hop_eval_record.h"
#include "posbias/arch/attention_path.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/hop_eval.h"

namespace posbias {

struct EvalOptions {
  std::string run;  // RUN_DIR
  CheckpointSelection checkpoints = CheckpointSelection::last();
  std::vector<std::int64_t> lengths = {17, 32, 64, 128, 256, 512, 850};
  std::int64_t count = 200;  // examples per (length, hop)
  std::uint64_t seed = 1;
  // Score only these hops' examples, the ones the whole evaluation draws for them (empty: every
  // hop the run trained on): a long evaluation in pieces, joined by scripts/join-eval-pieces.py.
  std::vector<int> hops;
  bool controls = true;
  std::optional<AttentionPath> attention;   // nullopt: dense unless it passes the budget
  double memory_budget_gb = 0;              // 0: what the machine has available
  std::optional<RopeScaling> rope_scaling;  // eval --rope-scaling (rotary runs); none: as trained
  std::optional<double> logn_scale;         // eval --logn-scale s; none: as trained
  std::string json;                         // empty = stdout
  std::string plot;                         // figure stem: accuracy against length
};

struct EvalResult {
  Task task = Task::kNumber;
  std::string run, checkpoint;
  std::int64_t step = 0;
  std::int64_t count_per_hop = 0;
  std::uint64_t seed = 0;
  std::vector<std::int64_t> lengths;
  std::vector<HopAccuracy> accuracy;  // per length, in `lengths` order
  bool has_control = false;
  Variant control = Variant::kSeenJumps;      // seen_jumps (Number) or decoy (Letter)
  std::vector<HopAccuracy> control_accuracy;  // per length when has_control
  std::vector<AttentionPath> attention;       // per length
  std::optional<RopeScaling> rope_scaling;
  std::optional<double> logn_scale;  // eval --logn-scale
  double seconds = 0;
};

// Checks the options (std::invalid_argument naming the bad one), loads the run's `checkpoint`
// (a file of its checkpoints/), evaluates.
EvalResult measure_eval(const EvalOptions& options, const std::filesystem::path& checkpoint);

// The file's record (hop_eval_record.h), and its JSON.
HopEvalRecord eval_record(const EvalResult& result);
nlohmann::json to_json(const EvalResult& result);
// Accuracy against length, one curve per hop, all hops, the chance level and the control, from
// the result as its file holds it: what eval --plot draws, and eval --redraw again from the file.
// std::invalid_argument naming the field when a length has no row or no "all".
Figure eval_figure(const HopEvalRecord& record);
// Several checkpoints of one run: all-hop accuracy against length, one curve per checkpoint
// coloured by its step, and the last one's chance.
Figure eval_steps_figure(const std::vector<EvalResult>& results);

// measure_eval at each checkpoint options.checkpoints selects (in training order), then the JSON
// to options.json (stdout when empty) and the figure to options.plot.
std::vector<EvalResult> run_eval(const EvalOptions& options);

}  // namespace posbias
