#include "torchrun_env.h"

#include <cstdlib>
#include <map>
#include <string>

namespace posbias::cli {

std::optional<RankEnv> rank_env_from_environment() {
  std::map<std::string, std::string> variables;
  for (const char* name : kTorchrunVariables)
    if (const char* value = std::getenv(name); value != nullptr) variables[name] = value;
  return rank_env_from_variables(variables);
}

}  // namespace posbias::cli
