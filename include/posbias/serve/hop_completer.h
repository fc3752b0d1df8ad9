// Trained hop models as a completion backend for `posbias serve`: each run's latest
// checkpoint, named by the run. A prompt's task input is its last line of task tokens
// (extract_task_input); the completion is the model's greedy answer at the last position, one
// token (a hop model ends at its answer, so max_tokens above 1 returns the same single token).
// Each model answers its requests through a BatchQueue: concurrent requests of equal length
// share one forward pass.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "posbias/serve/openai_server.h"

namespace posbias {

constexpr int kMaxServedTokens = 8192;  // longest prompt input a served hop model reads

struct ServedRun {
  std::string name, dir;
};
// "NAME=DIR" or "DIR" (named by the directory's last component).
ServedRun parse_served_run(const std::string& spec);

class HopCompleter : public Completer {
 public:
  // Loads every run (std::runtime_error for a missing or corrupt one). A request waits at most
  // busy_timeout seconds for its answer (BackendBusy after that; the model then skips it
  // unless it had already taken it).
  HopCompleter(const std::vector<ServedRun>& runs, double busy_timeout);
  ~HopCompleter() override;
  std::vector<std::string> models() const override;
  // An unknown model name is served by the only model when there is one, else UnknownModel.
  Completion complete(const CompletionRequest& request) override;

 private:
  struct Served;
  std::vector<std::unique_ptr<Served>> served_;
  double busy_timeout_;
};

}  // namespace posbias
