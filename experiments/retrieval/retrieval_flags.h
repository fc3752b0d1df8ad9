// The command lines of retrieval's measurements, which the retrieval and mitigations sections'
// commands by hand print for what they run, so each line is spelled once: `posbias eval`'s
// evaluation by depth (DepthEvalOptions, depth_eval.h) and `posbias birth --inputs kv|passkey`'s
// influence of the answer (AnswerInfluenceOptions, train/answer_influence.h).
#pragma once

#include <string>

#include "experiments/retrieval/depth_eval.h"
#include "posbias/train/answer_influence.h"

namespace posbias {

// "--depths 0,50,100 --lengths 32,64 --count 100": --depths and --count always, --lengths when
// given (eval's own lengths otherwise), --seed when it is not eval's default; without --run and
// the outputs (--json, --csv, --plot), which the caller writes.
std::string depth_eval_flags(const DepthEvalOptions& options);

// "--inputs kv --target answer --checkpoints last --depths 0,50,100 --seeds 4" (--seeds is the
// examples per depth), --length when given (the run's own otherwise) and --seed when it is not
// eval's default; without --run and the outputs, which the caller writes.
std::string answer_influence_flags(const AnswerInfluenceOptions& options);

}  // namespace posbias
