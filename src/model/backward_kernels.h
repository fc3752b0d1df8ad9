// Fused loops for the batched linearized backward (layers.cc), where torch's elementwise ops
// would make several passes over [C, ...] tensors that no longer fit in cache. Each is one
// pass per row; float32 and float64.
#pragma once

#include <torch/torch.h>

namespace posbias {

// Norm backward for a batch of cotangents: dy [C, B, L, D] (any C), xhat [B, L, D] the
// normalized input, rstd [B, L, 1], weight [D]. Returns
//   dx = rstd·(g − mean(g) − x̂·mean(g·x̂)),  g = dy·w   (LayerNorm)
//   dx = rstd·(g − x̂·mean(g·x̂))                        (RMSNorm, centered = false)
torch::Tensor norm_backward_rows(const torch::Tensor& dy, const torch::Tensor& xhat,
                                 const torch::Tensor& rstd, const torch::Tensor& weight,
                                 bool centered);
// The same applied to every row of per-position maps [B, L, R, D] (rows of position i use
// position i's x̂ and rstd): the norm backward composed after a D-column map at each position.
torch::Tensor norm_backward_maps(const torch::Tensor& maps, const torch::Tensor& xhat,
                                 const torch::Tensor& rstd, const torch::Tensor& weight,
                                 bool centered);

// Softmax backward in place for causal attention with the cotangents inside the rows:
// dp [H, L, C, L] (query i, cotangent c, key j) becomes dS = P ⊙ (dP − Σ_j dP ⊙ P) with
// p [H, L, L]. Keys j > i are set to 0 without being read: P is exactly 0 there (softmax of
// the −inf causal mask), so the general formula gives 0 too.
void causal_softmax_backward_(torch::Tensor& dp, const torch::Tensor& p);

}  // namespace posbias
