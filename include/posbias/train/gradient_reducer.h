// Averages each step's gradients over the data-parallel ranks: the flat gradient buffer
// (FlatParams::grads, [P]) is cut into buckets of whole parameters of about `bucket_bytes`,
// in reverse parameter order (the order the backward produces them), and each bucket's
// all-reduce starts during the backward, as soon as autograd has accumulated the last
// gradient that lands in it (a post hook on every parameter's AccumulateGrad node; the
// C++ frontend has no DistributedDataParallel to do this). How many accumulations a parameter
// gets per backward (two for a tied embedding, none for an unused one) is counted in the first
// backward, which reduces after it finishes; buckets the hooks did not start are started when
// the backward returns. finish() waits and divides by the world size.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "posbias/dist/process_group.h"
#include "posbias/train/optimizer.h"

namespace posbias {

class GradientReducer {
 public:
  GradientReducer(FlatParams& flat, torch::nn::Module& module, ProcessGroup& group,
                  std::int64_t bucket_bytes = 4 << 20);
  ~GradientReducer();
  GradientReducer(const GradientReducer&) = delete;
  GradientReducer& operator=(const GradientReducer&) = delete;

  // Around one training backward: arm() before loss.backward(), finish() after it. Backward
  // passes outside arm()/finish() (evaluations) start nothing.
  void arm();
  void finish();

  std::int64_t buckets() const { return static_cast<std::int64_t>(buckets_.size()); }
  // Seconds finish() spent waiting for all-reduces (the communication the backward did not
  // hide), summed over steps, and the buckets started during a backward.
  double wait_seconds() const { return wait_seconds_; }
  std::int64_t overlapped_buckets() const { return overlapped_; }

 private:
  struct Bucket {
    std::int64_t offset = 0, numel = 0;
    std::vector<std::size_t> params;  // indices into FlatParams::slots()
    int remaining = 0;                // accumulations still to come in this backward
    bool started = false;
  };
  void accumulated(std::size_t param);  // called by the hooks
  void start(Bucket& bucket);

  FlatParams* flat_;
  ProcessGroup* group_;
  std::vector<Bucket> buckets_;
  std::vector<std::size_t> bucket_of_;  // per parameter
  std::vector<int> expected_, seen_;    // accumulations per parameter per backward
  std::vector<std::shared_ptr<torch::autograd::Node>> accumulators_;  // kept alive for the hooks
  bool armed_ = false, counted_ = false;
  double wait_seconds_ = 0;
  std::int64_t overlapped_ = 0;
};

}  // namespace posbias
