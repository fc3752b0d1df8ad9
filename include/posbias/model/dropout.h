// Dropout masks from the forward's seeded stream (layers.h's DropoutSource), and the parallel
// block's residual sum with both branches dropped, fused: y = x + a·mask_a + m·mask_m in one pass
// and its backward (dy, dy·mask_a, dy·mask_m) in another, where libtorch ran four and two
// elementwise ops, each a parallel region (thread hand-offs on two cores). The same float
// operations in the same order as x + a·mask_a + m·mask_m, so results are bit-identical.
#pragma once

#include <torch/torch.h>

#include "posbias/model/layers.h"

namespace posbias {

// A fresh float32 mask of these sizes (0 or 1/(1 − p)), the stream's next draws; undefined
// without dropout.
torch::Tensor dropout_mask(at::IntArrayRef sizes, const PositionContext& ctx);

// x + a·mask_a + m·mask_m for float32 CPU tensors of one shape (masks float32); branches in
// another type (bf16) get the plain ops, with the same masks.
torch::Tensor dropped_residual(const torch::Tensor& x, const torch::Tensor& a,
                               const torch::Tensor& m, const torch::Tensor& mask_a,
                               const torch::Tensor& mask_m);

}  // namespace posbias
