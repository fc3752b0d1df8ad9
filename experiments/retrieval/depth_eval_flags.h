// The `posbias eval` flags of an evaluation by depth (DepthEvalOptions, depth_eval.h): what the
// retrieval and mitigations sections' commands by hand print for the evaluation they run, so the
// line is spelled once.
#pragma once

#include <string>

#include "experiments/retrieval/depth_eval.h"

namespace posbias {

// "--depths 0,50,100 --lengths 32,64 --count 100": --depths and --count always, --lengths when
// given (eval's own lengths otherwise), --seed when it is not eval's default; without --run and
// the outputs (--json, --csv, --plot), which the caller writes.
std::string depth_eval_flags(const DepthEvalOptions& options);

}  // namespace posbias
