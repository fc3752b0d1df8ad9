// What a passkey example needs of a trained text run (`train --task text`), read from its folder
// without loading the model: its train.json (length, needle count), its tokenizer and its
// held-out Brown text in the run's ids. `tasks --task passkey --run RUN` and `llm --suite passkey
// --run RUN` build their examples from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "posbias/text/tokenizer.h"

namespace posbias {

struct PasskeyRun {
  Tokenizer tokenizer;
  std::vector<std::int32_t> heldout;  // the held-out files' sentences, encoded in order
  int length = 0, needles = 1;        // the run's training length and needles per window
  int max_length = 0;                 // the longest length the model reads: its length with learned
                                      // positions (a text run's table), else 0 (no limit)
};

// Throws std::invalid_argument for a folder that is not a text run, std::runtime_error for a
// corpus that is missing or is not the one the run was trained on.
PasskeyRun open_passkey_run(const std::filesystem::path& run);

}  // namespace posbias
