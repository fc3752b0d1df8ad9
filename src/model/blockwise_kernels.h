// The float32 tile loops of blockwise attention (blockwise_attention.cc) on raw buffers: each
// (batch row, head) runs on one thread, its tile products go to oneDNN's sgemm single-threaded,
// and the softmax rows (max, exp, the dS product) are vectorized loops. The torch-op version
// in blockwise_attention.cc stays for float64 (the tests' reference precision) and is what these
// loops are checked against (tests/model/blockwise_attention_test.cc).
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "posbias/model/blockwise_attention.h"

namespace posbias {

// Whether the loops below take these operands: float32 on the CPU.
bool blockwise_kernels_apply(const torch::Tensor& q);

// Shapes and meaning as blockwise_attention and blockwise_attention_backward; with entropy,
// each row's entropy is accumulated with the online softmax (log Σ − U/Σ, float64 per row).
BlockwiseForward blockwise_forward_f32(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const ScoreBias& bias, double scale,
                                       std::int64_t tile, bool entropy);
AttentionGrads blockwise_backward_f32(const torch::Tensor& q, const torch::Tensor& k,
                                      const torch::Tensor& v, const torch::Tensor& z,
                                      const torch::Tensor& lse, const torch::Tensor& dz,
                                      const ScoreBias& bias, double scale, std::int64_t tile);

}  // namespace posbias
