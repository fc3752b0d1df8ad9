// Trained hop models as a completion backend for `posbias serve`: each run's latest
// checkpoint, named by the run. A prompt's task input is its last line of task tokens
// (extract_task_input); the completion is the model's answer at the last position (greedy unless
// the request samples), one token (a hop model ends at its answer, so max_tokens above 1 returns
// the same single token). Each model answers its requests through a BatchQueue: concurrent requests
// of equal length share one forward pass.
#pragma once

#include <string>
#include <vector>

#include "posbias/serve/openai_server.h"
#include "posbias/serve/served_models.h"

namespace posbias {

class HopCompleter : public Completer {
 public:
  // Loads every run (std::runtime_error for a missing or corrupt one). A request waits at most
  // busy_timeout seconds for its answer (BackendBusy after that; the model then skips it
  // unless it had already taken it).
  HopCompleter(const std::vector<ServedRun>& runs, double busy_timeout);
  std::vector<std::string> models() const override { return served_.names(); }
  // UnknownModel for a name it does not serve.
  Completion complete(const CompletionRequest& request, const TokenSink& on_token) override;

 private:
  ServedModels served_;
};

}  // namespace posbias
