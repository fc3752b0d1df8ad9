// The trained runs one `posbias serve` backend answers for: each run's latest checkpoint (or the
// ones serve --checkpoints selects), named by the run, a BatchQueue that runs its decoding steps
// (concurrent requests of equal length share one forward pass), and the decoding loop itself
// (greedy or sampled, stop strings, log-probabilities, a callback per token for streaming). The
// hop, kv and text backends each hold one; what differs between them is how a prompt becomes ids
// and ids become text.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posbias/serve/batch_queue.h"
#include "posbias/serve/openai_server.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

constexpr int kMaxServedTokens = 8192;  // longest input a served model reads

// How a backend turns decoded ids into text: the text of all the ids decoded so far, and one
// token's own text (the alternatives of a log-probability).
struct Detokenizer {
  std::function<std::string(const std::vector<std::int64_t>& produced)> text;
  std::function<std::string(std::int64_t id)> token;
};

struct ServedRun {
  std::string name, dir;
  std::string checkpoint;  // the checkpoint file served; empty: the run's latest
};
// "NAME=DIR" or "DIR" (named by the directory's last component).
ServedRun parse_served_run(const std::string& spec);
// The models `run` serves under `selection` (serve --checkpoints): the one checkpoint selected
// under the run's name, or several, each named NAME@STEP, in training order.
std::vector<ServedRun> served_checkpoints(const ServedRun& run,
                                          const CheckpointSelection& selection);

class ServedModels {
 public:
  // What a backend accepts: throws std::invalid_argument naming the run it refuses.
  using Check = std::function<void(const ServedRun& run, const LoadedModel& loaded)>;

  // Loads every run (std::runtime_error for a missing or corrupt one) and checks it; throws
  // std::invalid_argument for no runs or two runs of one name. A request waits at most
  // busy_timeout seconds per decoding step (BackendBusy after that).
  ServedModels(const std::vector<ServedRun>& runs, double busy_timeout, const Check& check);
  ~ServedModels();

  std::vector<std::string> names() const;
  // The index of the model named `model`: UnknownModel for any other name (the server resolves
  // an empty name to its only model before a backend sees it).
  std::size_t find(const std::string& model) const;
  const std::string& name(std::size_t i) const;
  const LoadedModel& loaded(std::size_t i) const;
  // The longest input model i reads: kMaxServedTokens, or its learned position table when shorter.
  std::int64_t max_width(std::size_t i) const;
  // Throws std::invalid_argument naming the limit when model i cannot read a prompt of `prompt`
  // tokens followed by `decoded` − 1 decoded tokens (decoding `decoded` tokens reads that many).
  void check_width(std::size_t i, std::int64_t prompt, std::int64_t decoded) const;
  // Decodes after `ids` with model i: at most request.max_tokens tokens, and at most `natural`
  // when the model's answer has a fixed length (a hop answer 1, a kv value 3; 0 = none), cut at
  // the first stop string. finish_reason is "length" when max_tokens ended it before the stop
  // string or the natural end. Greedy at temperature 0, else sampled with request.seed (0 when
  // unset). Each step waits at most the busy timeout (BackendBusy naming the model).
  Completion decode(std::size_t i, BatchQueue::Input ids, int natural,
                    const CompletionRequest& request, const Detokenizer& detokenizer,
                    const TokenSink& on_token) const;

 private:
  struct Served;
  std::vector<std::unique_ptr<Served>> served_;
  double busy_timeout_;
};

}  // namespace posbias
