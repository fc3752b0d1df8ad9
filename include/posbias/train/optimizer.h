// Flat parameters and AdamW for training. All parameters of a module become views into one
// contiguous fp32 buffer, and their gradients views into a second, so the optimizer update,
// gradient clipping and the data-parallel gradient reduction (train/gradient_reducer.h) are
// each a few ops on one tensor of P elements instead of hundreds of small ones.
//
// Shapes: params, grads, exp_avg, exp_avg_sq, decay_mask are [P] (P = total parameters).
#pragma once

#include <torch/torch.h>

#include <string>
#include <vector>

#include "posbias/runfiles/train_config.h"

namespace posbias {

struct ParamSlot {
  std::string name;
  std::vector<std::int64_t> shape;
  std::int64_t offset = 0, numel = 0;
};

class FlatParams {
 public:
  // Re-points every parameter of `module` (in named_parameters order) into the flat buffers,
  // keeping the current values. Matrices and embeddings get weight decay; vectors do not.
  explicit FlatParams(torch::nn::Module& module);

  torch::Tensor params, grads, decay_mask;  // [P]
  const std::vector<ParamSlot>& slots() const { return slots_; }
  std::int64_t size() const { return params.numel(); }
  void zero_grad() { grads.zero_(); }

 private:
  std::vector<ParamSlot> slots_;
};

// The learning rate for update number `step` (1-based): linear warmup from lr/warmup to lr
// over `warmup` updates, then linear decay to 0 at `steps`.
double learning_rate(const TrainConfig& config, std::int64_t step);

// Scales gradients so their global L2 norm is at most max_norm (0 = off). Returns the norm
// before clipping.
double clip_gradients(FlatParams& flat, double max_norm);

// The name of the learned position table among a model's parameters (the slot pos_lr_scale
// scales).
inline constexpr const char* kPositionTableParam = "wpe";

// AdamW (decoupled weight decay, bias-corrected moments) on the flat buffers. With
// config.pos_lr_scale the position table's update and decay take lr × that scale (a group of
// its own, as a per-group lr in torch.optim); a scale of 1 updates bit for bit as without it.
class AdamW {
 public:
  AdamW(FlatParams& flat, const TrainConfig& config);
  void step(double lr);  // one update with the current gradients

  torch::Tensor exp_avg, exp_avg_sq;  // [P]
  // Each parameter's learning-rate multiple: [P], or undefined when every one is 1 (no
  // pos_lr_scale).
  torch::Tensor lr_scale;
  std::int64_t steps_taken = 0;

 private:
  FlatParams* flat_;
  double beta1_, beta2_, eps_, weight_decay_;
  torch::Tensor decay_scale_;  // decay_mask × lr_scale, when lr_scale is defined
};

}  // namespace posbias
