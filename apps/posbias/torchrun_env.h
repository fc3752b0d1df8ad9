// The torchrun variables (dist/rank_env.h's kTorchrunVariables) read from this process's
// environment: the one place posbias reads them. The torch commands that run on data-parallel
// ranks (train, birth, heads) pass the RankEnv down as an option.
#pragma once

#include <optional>

#include "posbias/dist/rank_env.h"

namespace posbias::cli {

// rank_env_from_variables over the variables that are set; its std::invalid_argument (exit 2)
// for a missing or malformed one.
std::optional<RankEnv> rank_env_from_environment();

}  // namespace posbias::cli
