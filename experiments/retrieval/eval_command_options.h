// `posbias eval`'s options as its command line gives them, before eval dispatches by the run's
// task: hop runs (EvalOptions, hops/eval_command.h), kv and passkey runs by depth × length
// (DepthEvalOptions, depth_eval.h; depth_eval_options below) and text runs (bits per byte).
// The values of its field table (eval_option_fields) stay unset until given, and each task then
// takes its own default; the `posbias eval` flags with their help, type and parsing come from the
// table (apps/posbias), and so does a command line that gives the options again
// (retrieval_flags.h's eval_flags). Each row's from_flag parses the flag's text as the command
// line always has and gives the field's JSON value.
//
// Not in the table (their flags are registered by hand): the run (--run, --redraw), the memory
// plan (--attention, --memory-budget) and the outputs (--json, --csv, --plot).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/retrieval/depth_eval.h"
#include "posbias/arch/attention_path.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/field_table.h"
#include "posbias/runfiles/checkpoint_selection.h"

namespace posbias {

// --calibrate's strength when --calibrate-strength is not given: the baseline divided out.
inline constexpr double kFullCalibration = 1;

struct EvalCommandOptions {
  // The table's fields, in its order; unset: the task's default.
  std::optional<CheckpointSelection> checkpoints;
  std::optional<std::vector<double>> depths;  // percent; kv and passkey runs
  std::optional<std::vector<std::int64_t>> lengths;
  std::optional<std::int64_t> count;
  std::optional<std::uint64_t> seed;
  std::vector<int> hops;            // hop runs; empty: every hop the run trained on
  bool controls = true;             // hop runs: the seen_jumps / decoy control
  std::optional<double> threshold;  // kv and passkey: the effective length's
  std::optional<RopeScaling> rope_scaling;
  std::optional<double> logn_scale;
  bool calibrate = false;                    // kv runs
  std::optional<double> calibrate_strength;  // unset: kFullCalibration
  // Outside the table.
  std::string run;
  std::optional<AttentionPath> attention;  // nullopt: dense unless it passes the budget
  double memory_budget_gb = 0;             // 0: what the machine has available
  std::string json, csv, plot;
};

// In the order `posbias eval --help` lists them.
const std::vector<FieldRow<EvalCommandOptions>>& eval_option_fields();

// What each task's options (EvalOptions, DepthEvalOptions: they name these fields alike) take
// from `o` the same way: the run, the checkpoints, lengths, examples and seed where given (their
// own defaults otherwise), the memory plan, the rotary and log-n changes, --json and --plot.
template <class TaskOptions>
void set_shared_eval_options(const EvalCommandOptions& o, TaskOptions& t) {
  t.run = o.run;
  t.checkpoints = o.checkpoints.value_or(t.checkpoints);
  t.lengths = o.lengths.value_or(t.lengths);
  t.count = o.count.value_or(t.count);
  t.seed = o.seed.value_or(t.seed);
  t.attention = o.attention;
  t.memory_budget_gb = o.memory_budget_gb;
  t.rope_scaling = o.rope_scaling;
  t.logn_scale = o.logn_scale;
  t.json = o.json;
  t.plot = o.plot;
}

// A kv or passkey run's options: DepthEvalOptions{}'s where `options` leaves a value unset, the
// calibration's strength only with --calibrate.
DepthEvalOptions depth_eval_options(const EvalCommandOptions& options);
// The table's fields of `options` as eval's options set them (without the run, the memory plan and
// the outputs): the depths and the examples per cell always, the lengths when given (the run's
// own otherwise), the others where they differ from DepthEvalOptions{}'s.
EvalCommandOptions eval_command_options(const DepthEvalOptions& options);

}  // namespace posbias
