// The trained runs one `posbias serve` backend answers for: each run's latest checkpoint, named
// by the run, and a BatchQueue that runs its greedy decoding steps (concurrent requests of equal
// length share one forward pass). The hop, kv and text backends each hold one; what differs
// between them is how a prompt becomes ids and ids become text.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posbias/serve/batch_queue.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

constexpr int kMaxServedTokens = 8192;  // longest input a served model reads

struct ServedRun {
  std::string name, dir;
};
// "NAME=DIR" or "DIR" (named by the directory's last component).
ServedRun parse_served_run(const std::string& spec);

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
  // The index of the model named `model`; an unknown name is the only model when there is one,
  // else UnknownModel.
  std::size_t find(const std::string& model) const;
  const std::string& name(std::size_t i) const;
  const LoadedModel& loaded(std::size_t i) const;
  // The longest input model i reads: kMaxServedTokens, or its learned position table when shorter.
  std::int64_t max_width(std::size_t i) const;
  // Throws std::invalid_argument naming the limit when model i cannot read a prompt of `prompt`
  // tokens followed by `decoded` − 1 decoded tokens (decoding `decoded` tokens reads that many).
  void check_width(std::size_t i, std::int64_t prompt, std::int64_t decoded) const;
  // One greedy step of model i: its argmax token after `ids` (BackendBusy naming the model).
  std::int64_t next_token(std::size_t i, const BatchQueue::Input& ids) const;

 private:
  struct Served;
  std::vector<std::unique_ptr<Served>> served_;
  double busy_timeout_;
};

}  // namespace posbias
