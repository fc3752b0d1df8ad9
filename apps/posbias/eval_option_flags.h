// `posbias eval`'s flags of EvalCommandOptions' field table
// (experiments/retrieval/eval_command_options.h), registered as ParsedOptions: each flag's text is
// parsed by its row when the action runs, so a bad value gets its one-line message (exit 2).
// --help shows the defaults of a hop run (the command's first task), and kv's for the options
// only kv and passkey runs take.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "experiments/hops/eval_command.h"
#include "experiments/retrieval/eval_command_options.h"
#include "field_flags.h"

namespace posbias::cli {

// The table's values as --help shows them: a hop run's, and kv's depths, effective-length
// threshold and calibration strength.
inline EvalCommandOptions shown_eval_defaults() {
  const EvalOptions hop;
  const DepthEvalOptions kv;
  EvalCommandOptions shown;
  shown.checkpoints = hop.checkpoints;
  shown.depths = kv.depths;
  shown.lengths = hop.lengths;
  shown.count = hop.count;
  shown.seed = hop.seed;
  shown.threshold = kv.threshold;
  shown.calibrate_strength = kFullCalibration;
  return shown;
}

// Registers the table's flags on `cmd`, parsed into `options` by parsed->parse(); a flag of a
// BOOL field turns its default over. After each row, `after(row's name)` registers the options
// outside the table that --help lists there.
inline void add_eval_option_flags(CLI::App* cmd, ParsedOptions* parsed, EvalCommandOptions* options,
                                  const std::function<void(const std::string&)>& after) {
  add_field_flags(cmd, parsed, eval_option_fields(), shown_eval_defaults(), options, "eval option",
                  {}, [&after](const std::string& row, CLI::Option*) { after(row); });
}

}  // namespace posbias::cli
