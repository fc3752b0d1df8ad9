// Data-parallel ranks on torch's c10d: a TCPStore served by rank 0 at MASTER_ADDR:MASTER_PORT
// and a Gloo process group over it (CPU tensors, TCP). The ranks are the processes torchrun,
// `srun` or `posbias launch` start with the torchrun variables, which the command line reads
// (dist/rank_env.h). Joining checks, before any rank writes a file, that every rank
// names the same world size and runs the same job (a fingerprint of its config), and that no
// two ranks claim one RANK. Every collective has a timeout; a peer that dies or stalls makes
// the others throw one line (std::runtime_error) instead of hanging or printing a c10 trace.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "posbias/dist/rank_env.h"

namespace at {
class Tensor;
}

namespace posbias {

class ProcessGroup {
 public:
  // Joins the group: rank 0 serves the store, the others connect to it, every rank waits up to
  // `timeout` for all WORLD_SIZE ranks. Throws std::invalid_argument for a world size or
  // fingerprint that differs from rank 0's, or a RANK claimed twice; std::runtime_error for an
  // unreachable master, a port in use or ranks that never come.
  ProcessGroup(const RankEnv& env, std::chrono::milliseconds timeout,
               const std::string& fingerprint);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int rank() const { return env_.rank; }
  int size() const { return env_.world_size; }
  std::chrono::milliseconds timeout() const { return timeout_; }

  // Rank 0's values into `tensors` on every rank, in place.
  void broadcast(std::vector<at::Tensor> tensors);
  // Starts summing `tensor` (contiguous, float) over the ranks in place; wait_all() finishes.
  void start_sum(const at::Tensor& tensor);
  void wait_all();
  double sum(double value);  // over the ranks, returned on every rank
  // Every rank's `mine`, in rank order, on every rank (through the store; small payloads).
  std::vector<std::string> all_gather(const std::string& mine);
  void barrier();

 private:
  struct Impl;
  RankEnv env_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<Impl> impl_;
  std::int64_t gathers_ = 0;
};

}  // namespace posbias
