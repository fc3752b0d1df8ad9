// Attention without an [L, L] tensor: scores are computed one (query block, key block) tile at
// a time with an online softmax, and the backward recomputes each tile from the per-row
// log-sum-exp saved by the forward (FlashAttention's recurrences, on the CPU). Memory is
// O(L·E) per head plus one tile; the dense path keeps [B, H, L, L] per layer.
//
// Shape legend of layers.h: q, k, v [B, H, L, E] after rotary, keys and values expanded to H
// heads; C cotangents lead the backward's tensors.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "posbias/arch/attention_path.h"

namespace posbias {

// The additive score bias, as a rule instead of a tensor: keys j ≤ i (causal), j > i − window
// when window > 0, and ALiBi's −slope_h·(i − j) when slopes ([H], float64) are defined.
struct ScoreBias {
  std::int64_t window = 0;
  torch::Tensor slopes;
  // The bias of queries [i0, i0 + ni) against keys [j0, j0 + nj): [H or 1, ni, nj], float64,
  // −inf where a key is masked.
  torch::Tensor tile(std::int64_t i0, std::int64_t ni, std::int64_t j0, std::int64_t nj) const;
  // The first key any query in [i0, i1) can see.
  std::int64_t first_key(std::int64_t i0) const;
};

struct BlockwiseForward {
  torch::Tensor z;    // [B, H, L, E] softmax(q·kᵀ·scale + bias)·v
  torch::Tensor lse;  // [B, H, L] log Σ_j exp(score_ij) per query row
  // [B, H, L] float64, when asked: each query row's softmax entropy −Σ_j P_ij·log P_ij
  torch::Tensor entropy;
};

// entropy: also each row's entropy, accumulated tile by tile with the softmax in float32 (in
// float64 from attention_entropy below, which float64 operands get).
BlockwiseForward blockwise_attention(const torch::Tensor& q, const torch::Tensor& k,
                                     const torch::Tensor& v, const ScoreBias& bias, double scale,
                                     std::int64_t tile = kAttentionTile, bool entropy = false);

// The same as differentiable torch code: z with an autograd backward that recomputes tiles.
// lse_out (optional) receives the log-sum-exp rows, detached.
torch::Tensor blockwise_attention_autograd(const torch::Tensor& q, const torch::Tensor& k,
                                           const torch::Tensor& v, const ScoreBias& bias,
                                           double scale, torch::Tensor* lse_out = nullptr);

struct AttentionGrads {
  torch::Tensor dq, dk, dv;  // [C, B, H, L, E]
};

// C cotangents of z at once, dz [C, B, H, L, E], through the softmax recomputed per tile:
// dS = P ⊙ (dP − rowsum(dz ⊙ z)), dP = dz·vᵀ, dq = dS·k·scale, dk = dSᵀ·q·scale, dv = Pᵀ·dz.
AttentionGrads blockwise_attention_backward(const torch::Tensor& q, const torch::Tensor& k,
                                            const torch::Tensor& v, const torch::Tensor& z,
                                            const torch::Tensor& lse, const torch::Tensor& dz,
                                            const ScoreBias& bias, double scale,
                                            std::int64_t tile = kAttentionTile);

// The softmax row of query i, recomputed: exp(q_i·kᵀ·scale + bias_i − lse_i), [B, H, L].
torch::Tensor attention_row(const torch::Tensor& q, const torch::Tensor& k,
                            const torch::Tensor& lse, const ScoreBias& bias, double scale,
                            std::int64_t row);

// The entropy of every query's softmax row, −Σ_j P_ij·log P_ij = lse_i − Σ_j P_ij·s_ij,
// accumulated tile by tile: [B, H, L], float64.
torch::Tensor attention_entropy(const torch::Tensor& q, const torch::Tensor& k,
                                const torch::Tensor& lse, const ScoreBias& bias, double scale,
                                std::int64_t tile = kAttentionTile);

}  // namespace posbias
