// Trained text runs (`train --task text`) as a completion backend for `posbias serve`: each
// run's latest checkpoint and its own tokenizer (RUN_DIR/tokenizer.model, or bytes), named by
// the run. The prompt is encoded as the run's training text is (lines joined by newlines, no
// newline added at its end), or is taken as given when it is an array of the run's token ids
// (each checked against the vocabulary); the completion is the continuation (greedy unless the
// request samples), max_tokens tokens (one forward pass each, through a BatchQueue), decoded to
// text and cut at a stop string.
#pragma once

#include <string>
#include <vector>

#include "posbias/serve/openai_server.h"
#include "posbias/serve/served_models.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

class TextCompleter : public Completer {
 public:
  // Loads every run and its tokenizer (std::runtime_error for a missing or corrupt one,
  // std::invalid_argument for a run of another task).
  TextCompleter(const std::vector<ServedRun>& runs, double busy_timeout);
  std::vector<std::string> models() const override { return served_.names(); }
  // std::invalid_argument (400) for an empty prompt, a token id outside the vocabulary, or a
  // prompt whose tokens and max_tokens pass kMaxServedTokens or a learned position table (the
  // message names the limit).
  Completion complete(const CompletionRequest& request, const TokenSink& on_token) override;

 private:
  std::vector<Tokenizer> tokenizers_;  // one per served run, filled as served_ loads them
  ServedModels served_;
};

}  // namespace posbias
