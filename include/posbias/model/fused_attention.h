// Dense causal attention for short inputs, fused: from the fused qkv projection's output to z,
// the input of the output projection, in one pass per sequence each way (rotary, scores, score
// bias, softmax, attention dropout, pattern·v), with its own backward. At the hop models' shape
// (L = 17, one head of 128) libtorch's path spent ~10% of a training step on it, nearly all in
// per-sequence dispatch: bmm runs 64 tiny GEMMs, each behind select and as_strided views,
// beside rotary's cat/stack and the softmax. Sequences run in parallel (at::parallel_for), one
// thread each. Sums run in another order than the BLAS's, so results equal libtorch's within
// float rounding (tests/model/fused_attention_test.cc checks both against float64).
#pragma once

#include <torch/torch.h>

namespace posbias {

// Up to this length the fused kernel serves; longer inputs take the GEMM path, which wins once
// the L×L products are large enough for the BLAS.
inline constexpr std::int64_t kFusedAttentionMaxLength = 64;

struct FusedAttentionShape {
  std::int64_t heads = 1, head_dim = 0;
  std::int64_t rotary = 0;   // R rotary dims per head (0: none)
  bool interleaved = false;  // pairs (2i, 2i+1), else halves (rotate_half)
  double scale = 1;          // the score scale, 1/√E
};

// qkv [B, L, 3·H·E] (rows [q heads | k heads | v heads], contiguous float32 CPU), cos and sin
// [L, R] (undefined when R = 0), bias [H or 1, L, L] (−inf where a key is masked, the diagonal
// never), dropout_mask [B, H, L, L] (0 or 1/(1 − p); undefined for none) multiplies the pattern
// before v. Returns z [B, L, H·E]: softmax(rot(q)·rot(k)ᵀ·scale + bias)·v per head,
// differentiable in qkv.
torch::Tensor fused_attention(const torch::Tensor& qkv, const torch::Tensor& cos,
                              const torch::Tensor& sin, const torch::Tensor& bias,
                              const torch::Tensor& dropout_mask, const FusedAttentionShape& shape);

// Whether fused_attention takes these operands: float32 CPU, contiguous qkv, L at most
// kFusedAttentionMaxLength.
bool fused_attention_applies(const torch::Tensor& qkv, const torch::Tensor& bias);

}  // namespace posbias
