#include "posbias/runfiles/eval_steps.h"

#include <fmt/format.h>

#include <stdexcept>

namespace posbias {
namespace {

// The task a one-checkpoint result names, by the row the file of several names it by; its other
// fields are its task's record's.
EvalTask one_result_task(const nlohmann::json& j) {
  struct Named {
    EvalTask task = EvalTask::kNumber;
  };
  const std::vector<FieldRow<Named>> rows = {eval_task_field(&Named::task)};
  std::vector<std::string> others;
  for (const auto& [key, value] : j.items())
    if (key != rows.front().name) others.push_back(key);
  return fields_from_json(rows, j, Named{}, "eval field", others).task;
}

}  // namespace

EvalFileKind eval_file_kind(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("not a JSON object");
  // Exactly the record's fields: heads and birth --run files hold checkpoints too, among others.
  if (j.size() == eval_steps_fields<AnyEvalSteps>().size()) {
    try {
      const AnyEvalSteps steps = eval_steps_from_json<AnyEvalSteps>(j);
      return {steps.task, steps.checkpoints.size()};
    } catch (const std::invalid_argument&) {  // not the file of several
    }
  }
  return {one_result_task(j), std::nullopt};
}

void refuse_eval_steps(const nlohmann::json& j, const std::string& source) {
  EvalFileKind kind;
  try {
    kind = eval_file_kind(j);
  } catch (const std::invalid_argument&) {
    return;  // no eval result: its reader says what is wrong with it
  }
  if (!kind.checkpoints) return;
  throw std::runtime_error(
      fmt::format("{}: holds the eval of {} checkpoints (eval --checkpoints); give the eval of one "
                  "checkpoint per run (eval --checkpoints last, or one step)",
                  source, *kind.checkpoints));
}

}  // namespace posbias
