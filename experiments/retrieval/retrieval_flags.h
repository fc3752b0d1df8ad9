// The command lines of retrieval's measurements, which the retrieval and mitigations sections'
// commands by hand print for what they run, so each line is spelled once: `posbias eval`'s
// (EvalCommandOptions, from its field table, eval_command_options.h), its evaluation by depth
// (DepthEvalOptions, depth_eval.h) and `posbias birth --inputs kv|passkey`'s influence of the
// answer (AnswerInfluenceOptions, train/answer_influence.h).
#pragma once

#include <string>

#include "experiments/retrieval/depth_eval.h"
#include "experiments/retrieval/eval_command_options.h"
#include "posbias/train/answer_influence.h"

namespace posbias {

// "--depths 0,50,100 --count 100 --rope-scaling pi:2": the flag of each field of the table that
// `options` sets, in the table's order ("" when none is); without --run, the memory plan and the
// outputs (--json, --csv, --plot), which the caller writes.
std::string eval_flags(const EvalCommandOptions& options);

// eval_flags of eval_command_options(options): --depths and --count always, --lengths when
// given (eval's own lengths otherwise), the others (--seed, --rope-scaling, ...) when they are
// not eval's defaults.
std::string depth_eval_flags(const DepthEvalOptions& options);

// The flags that turn an evaluation with `base`'s options into one with `options`' (the fields
// of eval's table whose value differs, in the table's order): "--rope-scaling pi:2" for a
// remedy evaluated at inference on top of a command line.
std::string depth_eval_flags_beside(const DepthEvalOptions& base, const DepthEvalOptions& options);

// "--inputs kv --target answer --checkpoints last --depths 0,50,100 --seeds 4" (--seeds is the
// examples per depth), --length when given (the run's own otherwise) and --seed when it is not
// eval's default; without --run and the outputs, which the caller writes.
std::string answer_influence_flags(const AnswerInfluenceOptions& options);

}  // namespace posbias
