#include "posbias/train/gradient_reducer.h"

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <chrono>
#include <stdexcept>

namespace posbias {
namespace {

// Runs after AccumulateGrad has added a gradient into the parameter's slot of the flat buffer.
class Accumulated : public torch::autograd::FunctionPostHook {
 public:
  Accumulated(std::function<void()> on_accumulated) : on_accumulated_(std::move(on_accumulated)) {}
  torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                            const torch::autograd::variable_list&) override {
    on_accumulated_();
    return outputs;
  }

 private:
  std::function<void()> on_accumulated_;
};

}  // namespace

GradientReducer::GradientReducer(FlatParams& flat, torch::nn::Module& module, ProcessGroup& group,
                                 std::int64_t bucket_bytes)
    : flat_(&flat), group_(&group) {
  const std::vector<ParamSlot>& slots = flat.slots();
  const std::vector<torch::Tensor> params = module.parameters(/*recurse=*/true);
  if (params.size() != slots.size())
    throw std::logic_error("GradientReducer: the module is not the one FlatParams flattened");
  bucket_of_.assign(slots.size(), 0);
  expected_.assign(slots.size(), 0);
  seen_.assign(slots.size(), 0);
  const std::int64_t bucket_numel = std::max<std::int64_t>(1, bucket_bytes / 4);
  // Buckets from the last parameter back: the backward reaches the output layers first.
  for (std::size_t i = slots.size(); i-- > 0;) {
    if (buckets_.empty() || buckets_.back().numel >= bucket_numel) buckets_.push_back({});
    Bucket& b = buckets_.back();
    b.params.push_back(i);
    b.offset = slots[i].offset;  // descending: the bucket's start is its last parameter's
    b.numel += slots[i].numel;
    bucket_of_[i] = buckets_.size() - 1;
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    std::shared_ptr<torch::autograd::Node> node =
        torch::autograd::impl::grad_accumulator(params[i]);
    node->add_post_hook(std::make_unique<Accumulated>([this, i] { accumulated(i); }));
    accumulators_.push_back(std::move(node));
  }
}

GradientReducer::~GradientReducer() = default;

void GradientReducer::arm() {
  std::fill(seen_.begin(), seen_.end(), 0);
  for (Bucket& b : buckets_) {
    b.started = false;
    b.remaining = 0;
    for (std::size_t p : b.params) b.remaining += expected_[p];
  }
  armed_ = true;
}

void GradientReducer::accumulated(std::size_t param) {
  if (!armed_) return;
  ++seen_[param];
  if (!counted_) return;  // the first backward only counts
  Bucket& b = buckets_[bucket_of_[param]];
  if (--b.remaining == 0 && !b.started) {
    start(b);
    ++overlapped_;
  }
}

void GradientReducer::start(Bucket& b) {
  b.started = true;
  group_->start_sum(flat_->grads.narrow(0, b.offset, b.numel));
}

void GradientReducer::finish() {
  armed_ = false;
  if (!counted_) {
    expected_ = seen_;
    counted_ = true;
  } else if (seen_ != expected_) {
    // The graph changed shape between steps: a bucket may have started before its last
    // accumulation, and its sum would miss that gradient.
    group_->wait_all();
    throw std::logic_error(
        "GradientReducer: a backward accumulated gradients a different "
        "number of times than the first one");
  }
  for (Bucket& b : buckets_) {
    if (!b.started) start(b);
  }
  const auto t0 = std::chrono::steady_clock::now();
  group_->wait_all();
  wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  flat_->grads.div_(static_cast<double>(group_->size()));
}

}  // namespace posbias
