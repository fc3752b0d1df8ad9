// A trained text run's folder as a PasskeyRun (tasks/passkey_run.h), without loading the model:
// its train.json through RunHeader's strict reader (runfiles/run_header.h), its tokenizer and its
// held-out Brown text in the run's ids.
#pragma once

#include <filesystem>

#include "posbias/tasks/passkey_run.h"

namespace posbias {

// Throws std::invalid_argument for a folder that is not a training run (no train.json) or not a
// text run; std::runtime_error for a damaged train.json (one line naming the field), and for a
// corpus that is missing or is not the one the run was trained on.
PasskeyRun open_passkey_run(const std::filesystem::path& run);

}  // namespace posbias
