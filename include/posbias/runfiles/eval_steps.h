// `posbias eval --checkpoints` when it selects several checkpoints of one run. The file holds
// the run, its task and, in training order, each checkpoint's result exactly as `eval
// --checkpoints STEP` writes it for that checkpoint alone (each with its "step"); its layout is
// the field table in eval_steps.cc.
// One checkpoint (the default, `last`, or one step) keeps the one-result file, so the readers of
// an eval (seeds --eval, the report) read it as before; they refuse a file of several in one
// line saying how to get one.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/tasks/eval_task.h"

namespace posbias {

// The file's record, one field table for its writer and strict reader; each result is kept as
// its task's eval writes it (that task's own record reads it).
struct EvalSteps {
  std::string run;
  EvalTask task = EvalTask::kNumber;
  std::vector<nlohmann::json> checkpoints;
};
nlohmann::json to_json(const EvalSteps& steps);
// Strict: an unknown, missing or mistyped field throws std::invalid_argument naming it.
EvalSteps eval_steps_from_json(const nlohmann::json& j);

// Throws std::runtime_error naming `source` when `j` is the file of several checkpoints.
void refuse_eval_steps(const nlohmann::json& j, const std::string& source);

}  // namespace posbias
