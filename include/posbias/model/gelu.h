// GELU with the tanh approximation (GPT-2's and GPT-J's "gelu_new"), fused: one pass for the
// forward and one for the backward, with a vectorizable exp instead of libm/Sleef tanh.
// torch::gelu(x, "tanh") spent ~11% of a hop-model training step in Sleef's tanh; this
// kernel computes gelu(x) = x·σ(2z), z = √(2/π)(x + 0.044715x³), with σ from a polynomial
// 2^f (relative error < 2e-7), and its derivative in the backward from the saved input.
// float32 CPU contiguous tensors take the fused path; anything else falls back to torch::gelu.
#pragma once

#include <torch/torch.h>

namespace posbias {

torch::Tensor gelu_tanh(const torch::Tensor& x);
// Its derivative GELU'(x), with the same fused kernel (the formula with tanh otherwise).
torch::Tensor gelu_tanh_grad(const torch::Tensor& x);

}  // namespace posbias
