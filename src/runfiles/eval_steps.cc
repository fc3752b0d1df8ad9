#include "posbias/runfiles/eval_steps.h"

#include <fmt/format.h>

#include <stdexcept>

namespace posbias {

void refuse_eval_steps(const nlohmann::json& j, const std::string& source) {
  // Exactly the record's fields: heads and birth --run files hold checkpoints too, among others.
  if (!j.is_object() || j.size() != eval_steps_fields<AnyEvalSteps>().size()) return;
  AnyEvalSteps steps;
  try {
    steps = eval_steps_from_json<AnyEvalSteps>(j);
  } catch (const std::invalid_argument&) {
    return;
  }
  throw std::runtime_error(
      fmt::format("{}: holds the eval of {} checkpoints (eval --checkpoints); give the eval of one "
                  "checkpoint per run (eval --checkpoints last, or one step)",
                  source, steps.checkpoints.size()));
}

}  // namespace posbias
