// The model's linear layers through oneDNN's sgemm (gemm.h), forward and backward.
//
// y = x·Wᵀ + b as torch::nn::functional::linear computes it, in a custom autograd function
// whose three products (y = x·Wᵀ, dx = dy·W, dW = dyᵀ·x) go to dnnl_sgemm, and db = Σ dy over
// the rows. Debian's libtorch sends them to OpenBLAS, which at the hop model's shapes (1088
// rows, d 128, MLP 512) ran 1.2–1.5× slower at one thread (issue 40). float32 on the CPU
// only: any other dtype, a non-contiguous input or weight, or a product under CPU autocast
// (--precision bf16) goes to torch's linear and its autograd unchanged. The sums run in another
// order than OpenBLAS's, so the results differ from torch's in their last bits
// (tests/model/dnnl_linear_test.cc).
#pragma once

#include <torch/torch.h>

namespace posbias {

// x [..., K], weight [N, K], bias [N] or undefined → [..., N].
torch::Tensor dnnl_linear(const torch::Tensor& x, const torch::Tensor& weight,
                          const torch::Tensor& bias);

// The same with a torch::nn::Linear's weight and bias (the module stays their holder).
torch::Tensor dnnl_linear(const torch::Tensor& x, const torch::nn::Linear& layer);

}  // namespace posbias
