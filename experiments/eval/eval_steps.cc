#include "experiments/eval/eval_steps.h"

#include <fmt/format.h>

#include <stdexcept>

namespace posbias {

nlohmann::json eval_steps_json(const std::string& run, const std::string& task,
                               std::vector<nlohmann::json> results) {
  nlohmann::json j = nlohmann::json::object();
  j["run"] = run;
  j["task"] = task;
  j["checkpoints"] = std::move(results);
  return j;
}

void refuse_eval_steps(const nlohmann::json& j, const std::string& source) {
  // Exactly its three fields: heads and birth --run files hold checkpoints too, among others.
  if (!j.is_object() || j.size() != 3 || !j.contains("run") || !j.contains("task") ||
      !j.contains("checkpoints") || !j.at("checkpoints").is_array())
    return;
  throw std::runtime_error(
      fmt::format("{}: holds the eval of {} checkpoints (eval --checkpoints); give the eval of one "
                  "checkpoint per run (eval --checkpoints last, or one step)",
                  source, j.at("checkpoints").size()));
}

}  // namespace posbias
