// The data of a text run (`train --task text`): the corpus, the run's tokenizer and the token
// streams. A fresh run trains its SentencePiece model on the training split and stores it as
// RUN_DIR/tokenizer.model; resuming, `eval`, `birth --run` and every other reader load that
// file, so a run's ids mean the same thing forever. The corpus fingerprint is stored in
// train.json and checked when the run is opened again.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "posbias/runfiles/train_config.h"
#include "posbias/text/text_data.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

struct TextRunData {
  Tokenizer tokenizer;
  TextStreams streams;
  std::uint64_t corpus_fingerprint = 0;
  std::filesystem::path corpus_dir;
};

std::filesystem::path tokenizer_path(const std::filesystem::path& run_dir);

// fresh: trains (spm) and stores the tokenizer; otherwise loads it from the run and checks
// the corpus against `expected_fingerprint` (hex, empty = unchecked). Throws
// std::runtime_error for a missing corpus, a changed corpus or a bad tokenizer file, and when
// a split is too short for one window of the run's length.
TextRunData prepare_text_run(const TrainConfig& config, const std::filesystem::path& run_dir,
                             bool fresh, const std::string& expected_fingerprint = "");

// The held-out windows logged during training: config.eval_windows windows spread evenly over
// the held-out split's consecutive windows, row-major [n, length + 1].
std::vector<std::int64_t> logged_windows(const TrainConfig& config, const TextStreams& streams);

}  // namespace posbias
