#include "posbias/runfiles/eval_steps.h"

#include <fmt/format.h>

#include <stdexcept>

#include "posbias/core/field_table.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {
namespace {

const std::vector<FieldRow<EvalSteps>>& eval_steps_fields() {
  using E = EvalSteps;
  static const std::vector<FieldRow<E>> rows = {
      required(field("run", &E::run, "the run directory evaluated")),
      required(field("task", &E::task, "the run's task")),
      required(field<E, std::vector<nlohmann::json>, ListCodec<nlohmann::json>>(
          "checkpoints", &E::checkpoints, "each checkpoint's eval, in training order")),
  };
  return rows;
}

}  // namespace

nlohmann::json to_json(const EvalSteps& steps) {
  return fields_to_json(eval_steps_fields(), steps);
}

EvalSteps eval_steps_from_json(const nlohmann::json& j) {
  return fields_from_json(eval_steps_fields(), j, EvalSteps{}, "eval --checkpoints field");
}

void refuse_eval_steps(const nlohmann::json& j, const std::string& source) {
  // Exactly the record's fields: heads and birth --run files hold checkpoints too, among others.
  if (!j.is_object() || j.size() != eval_steps_fields().size()) return;
  EvalSteps steps;
  try {
    steps = eval_steps_from_json(j);
  } catch (const std::invalid_argument&) {
    return;
  }
  throw std::runtime_error(
      fmt::format("{}: holds the eval of {} checkpoints (eval --checkpoints); give the eval of one "
                  "checkpoint per run (eval --checkpoints last, or one step)",
                  source, steps.checkpoints.size()));
}

}  // namespace posbias
