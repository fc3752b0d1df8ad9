// Trained kv runs (`train --task kv`, tasks/kv_task.h) as a completion backend for `posbias
// serve`: each run's latest checkpoint, named by the run.
//
// Prompt: a kv example as `posbias tasks --task kv` writes it, its tokens separated by spaces
// ("_ A B C 4 0 7 ... ? A B C"), on the prompt's last non-empty line; earlier lines are ignored,
// so a template may put text above it. Every word of that line must be a kv token. A sink run's
// model (`train --sink`) reads its sink token first: the server puts it before the prompt.
// Completion: the decode of the value (greedy unless the request samples), at most kKvValueTokens
// tokens (fewer when max_tokens is lower or a stop string ends it), joined by spaces: "4 0 7". A kv
// model is trained to end at its value, so max_tokens above kKvValueTokens returns the same 3
// tokens. Decoding step k is one forward pass over the prompt and the k tokens decoded before it,
// through a BatchQueue (concurrent requests of equal length share a pass). Greedy decoding
// equals the teacher-forced argmax of kv_exact_matches on every value it gets right.
#pragma once

#include <string>
#include <vector>

#include "posbias/serve/openai_server.h"
#include "posbias/serve/served_models.h"

namespace posbias {

class KvCompleter : public Completer {
 public:
  // Loads every run (std::runtime_error for a missing or corrupt one, std::invalid_argument for
  // a run of another task). A request waits at most busy_timeout seconds per decoding step.
  KvCompleter(const std::vector<ServedRun>& runs, double busy_timeout);
  std::vector<std::string> models() const override { return served_.names(); }
  // UnknownModel for a name it does not serve. std::invalid_argument (400) names a token outside
  // the kv vocabulary, or the limit a prompt passes: kMaxServedTokens, or a learned position table.
  Completion complete(const CompletionRequest& request, const TokenSink& on_token) override;

 private:
  ServedModels served_;
};

// The tokens of a kv prompt: the words of its last non-empty line. Throws std::invalid_argument
// naming the first word outside the kv vocabulary, or for a prompt with no words.
std::vector<std::string> kv_prompt_tokens(const std::string& prompt);

}  // namespace posbias
