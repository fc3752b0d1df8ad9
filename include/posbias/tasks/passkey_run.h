// What a passkey example needs of a trained text run (`train --task text`): its tokenizer, its
// held-out Brown text in the run's ids, its training length and needle count. The run's folder
// is read by runfiles/passkey_run_files.h (open_passkey_run); `tasks --task passkey --run RUN`
// and `llm --suite passkey --run RUN` build their examples from it.
#pragma once

#include <cstdint>
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

}  // namespace posbias
