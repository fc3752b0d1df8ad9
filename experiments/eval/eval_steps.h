// `posbias eval --checkpoints` when it selects several checkpoints of one run. The file holds,
// in training order, each checkpoint's result exactly as `eval --checkpoints STEP` writes it for
// that checkpoint alone (each with its "step"):
//   {"run": RUN, "task": TASK, "checkpoints": [RESULT, RESULT, ...]}
// One checkpoint (the default, `last`, or one step) keeps the one-result file, so the readers of
// an eval (seeds --eval, the report) read it as before; they refuse a file of several in one
// line saying how to get one.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace posbias {

nlohmann::json eval_steps_json(const std::string& run, const std::string& task,
                               std::vector<nlohmann::json> results);

// Throws std::runtime_error naming `source` when `j` is the file of several checkpoints.
void refuse_eval_steps(const nlohmann::json& j, const std::string& source);

}  // namespace posbias
