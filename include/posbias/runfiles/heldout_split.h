// A text model's next-token loss on held-out text, as the files hold it: the "heldout" of a
// text run's summary.json (the whole held-out split at the end of training) and text `eval
// --run`'s result, each from one field table.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/arch/config.h"
#include "posbias/core/field_table.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/tasks/vocab.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

// Loss over windows of text: position t (0-based) predicts the window's token t + 1.
struct TextEvaluation {
  std::vector<double> loss_per_position;  // mean nats at positions 0..length − 1
  double loss = NAN;                      // mean nats per target token
  double bits_per_byte = NAN;             // total bits over the targets' UTF-8 bytes
  std::int64_t windows = 0, tokens = 0;
  double bytes = 0;
};
const std::vector<FieldRow<TextEvaluation>>& text_evaluation_fields();

// Every consecutive window of the held-out split, beside the unigram and bigram baselines
// (counted on the training split) on the same targets.
struct HeldoutSplit : TextEvaluation {
  double unigram_bits_per_byte = NAN, bigram_bits_per_byte = NAN;
  std::int64_t train_tokens = 0, heldout_tokens = 0;
  TokenizerKind tokenizer = TokenizerKind::kSpm;
  std::int64_t vocab = 0;
};
const std::vector<FieldRow<HeldoutSplit>>& heldout_split_fields();

// Text `eval --run`: the held-out split at one checkpoint of a run.
struct TextEvalResult : HeldoutSplit {
  std::string run, checkpoint;  // the run folder and the checkpoint file read
  std::int64_t step = 0;        // the checkpoint's step
  Task task = Task::kText;
  Family arch = Family::kGpt2;
  PosEncoding pos = PosEncoding::kLearned;
  std::int64_t length = 0;                 // the run's training length, the window length
  std::optional<AttentionPath> attention;  // the path evaluated with; older files: none
};
const std::vector<FieldRow<TextEvalResult>>& text_eval_result_fields();
nlohmann::json to_json(const TextEvalResult& r);
// Strict: an unknown or mistyped field, or a missing measurement, throws std::invalid_argument
// naming it.
TextEvalResult text_eval_result_from_json(const nlohmann::json& j);
// eval --checkpoints' file of several checkpoints of a text run.
using TextEvalSteps =
    EvalSteps<TextEvalResult, TableCodec<TextEvalResult, &text_eval_result_fields>>;

}  // namespace posbias
