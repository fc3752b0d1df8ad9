// Matrix products of the batched backward passes, through oneDNN's sgemm.
//
// Debian's libtorch links oneDNN (libdnnl 2.6) but sends every fp32 matmul to the system BLAS.
// On the products of the Jacobian engine, OpenBLAS 0.3.21 loses to oneDNN's JIT kernels: one
// thread at the engine's shapes, OpenBLAS ran 15-35% slower in the same process, on the thin
// products (one side the head dimension, 64) and the D×D ones alike (docs/birth.md).
// These helpers take float32 operands to dnnl_sgemm when each is a plain or transposed 2-D
// view (no copy); any other dtype or layout goes to torch's own product. Like torch's, they
// run single-threaded inside a parallel region and use every thread outside one.
#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace posbias::gemm {

// c = op(a)·op(b) (beta 0) or c += op(a)·op(b) (beta 1) on raw row-major float32 storage,
// op(x) = x or xᵀ for 'N' or 'T', through dnnl_sgemm; nothing to do when m, n or k is 0.
void sgemm(char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
           std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
           std::int64_t ldc);

// out = a·b for 2-D a [M, K], b [K, N], out [M, N] (out may be a row-major view).
void mm_out(const torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b);

// x·w over the last dimension of x: x [..., K], w [K, N] → [..., N].
torch::Tensor matmul(const torch::Tensor& x, const torch::Tensor& w);

// out[i] = a[i]·b[i] for 3-D a [B, M, K], b [B, K, N], out [B, M, N].
void bmm_out(const torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b);

}  // namespace posbias::gemm
