#include "backward_kernels.h"

#include <ATen/Parallel.h>

#include <array>

namespace posbias {

namespace {

constexpr int kLanes = 8;  // independent partial sums, so the compiler can vectorize reductions

// Σ_k term(k) for k < n, in kLanes interleaved partial sums.
template <typename T, typename Term>
T lane_sum(std::int64_t n, Term term) {
  std::array<T, kLanes> acc{};
  std::int64_t k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (int u = 0; u < kLanes; ++u) acc[u] += term(k + u);
  T total = 0;
  for (; k < n; ++k) total += term(k);
  for (int u = 0; u < kLanes; ++u) total += acc[u];
  return total;
}

template <typename T>
T dot(const T* a, const T* b, std::int64_t n) {
  return lane_sum<T>(n, [&](std::int64_t k) { return a[k] * b[k]; });
}

// Row r belongs to position (r / group) % positions: group = 1 for cotangents [C, B, L, D],
// group = R for per-position maps [B, L, R, D].
template <typename T>
void norm_rows(const T* dy, const T* xhat, const T* rstd, const T* w, T* dx, std::int64_t rows,
               std::int64_t positions, std::int64_t group, std::int64_t d, bool centered) {
  at::parallel_for(0, rows, 32, [&](std::int64_t begin, std::int64_t end) {
    std::vector<T> g(static_cast<std::size_t>(d));
    for (std::int64_t r = begin; r < end; ++r) {
      const std::int64_t pos = (r / group) % positions;
      const T* in = dy + r * d;
      const T* xh = xhat + pos * d;
      for (std::int64_t k = 0; k < d; ++k) g[k] = in[k] * w[k];
      const T mean_g =
          centered ? lane_sum<T>(d, [&](std::int64_t k) { return g[k]; }) / static_cast<T>(d) : 0;
      const T mean_gx = dot(g.data(), xh, d) / static_cast<T>(d);
      const T s = rstd[pos];
      T* out = dx + r * d;
      for (std::int64_t k = 0; k < d; ++k) out[k] = s * (g[k] - mean_g - xh[k] * mean_gx);
    }
  });
}

template <typename T>
void softmax_rows(T* dp, const T* p, std::int64_t heads, std::int64_t length, std::int64_t cot) {
  auto one_row = [&](std::int64_t h, std::int64_t i) {
    const T* prow = p + (h * length + i) * length;
    for (std::int64_t c = 0; c < cot; ++c) {
      T* row = dp + ((h * length + i) * cot + c) * length;
      const T r = dot(row, prow, i + 1);
      for (std::int64_t j = 0; j <= i; ++j) row[j] = prow[j] * (row[j] - r);
      for (std::int64_t j = i + 1; j < length; ++j) row[j] = 0;
    }
  };
  // Row i costs i + 1: pairing i with L − 1 − i gives every task the same work.
  const std::int64_t half = (length + 1) / 2;
  at::parallel_for(0, heads * half, 1, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t n = begin; n < end; ++n) {
      const std::int64_t h = n / half, t = n % half;
      one_row(h, t);
      if (length - 1 - t != t) one_row(h, length - 1 - t);
    }
  });
}

}  // namespace

namespace {

torch::Tensor norm_backward(const torch::Tensor& dy, const torch::Tensor& xhat,
                            const torch::Tensor& rstd, const torch::Tensor& weight, bool centered,
                            std::int64_t group) {
  const auto in = dy.contiguous();
  const auto xh = xhat.contiguous();
  const auto rs = rstd.contiguous();
  const auto w = weight.to(dy.scalar_type()).contiguous();
  const std::int64_t d = in.size(-1), positions = xh.numel() / d;
  TORCH_CHECK(xh.size(-1) == d && rs.numel() == positions && w.numel() == d &&
                  in.numel() % (xh.numel() * group) == 0 && xh.scalar_type() == in.scalar_type() &&
                  rs.scalar_type() == in.scalar_type(),
              "norm_backward: shapes or dtypes do not match");
  auto dx = torch::empty_like(in);
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "norm_backward", [&] {
    norm_rows<scalar_t>(in.data_ptr<scalar_t>(), xh.data_ptr<scalar_t>(), rs.data_ptr<scalar_t>(),
                        w.data_ptr<scalar_t>(), dx.data_ptr<scalar_t>(), in.numel() / d, positions,
                        group, d, centered);
  });
  return dx;
}

}  // namespace

torch::Tensor norm_backward_rows(const torch::Tensor& dy, const torch::Tensor& xhat,
                                 const torch::Tensor& rstd, const torch::Tensor& weight,
                                 bool centered) {
  return norm_backward(dy, xhat, rstd, weight, centered, /*group=*/1);
}

torch::Tensor norm_backward_maps(const torch::Tensor& maps, const torch::Tensor& xhat,
                                 const torch::Tensor& rstd, const torch::Tensor& weight,
                                 bool centered) {
  TORCH_CHECK(maps.dim() == 4 && xhat.dim() == 3 && maps.size(0) == xhat.size(0) &&
                  maps.size(1) == xhat.size(1),
              "norm_backward_maps: expects maps [B, L, R, D] and xhat [B, L, D]");
  return norm_backward(maps, xhat, rstd, weight, centered, /*group=*/maps.size(2));
}

void causal_softmax_backward_(torch::Tensor& dp, const torch::Tensor& p) {
  const auto pc = p.contiguous();
  TORCH_CHECK(dp.dim() == 4 && dp.is_contiguous() && pc.dim() == 3 && dp.size(0) == pc.size(0) &&
                  dp.size(1) == pc.size(1) && dp.size(3) == pc.size(2) &&
                  pc.size(1) == pc.size(2) && dp.scalar_type() == pc.scalar_type(),
              "causal_softmax_backward_: expects dp [H, L, C, L] and p [H, L, L]");
  AT_DISPATCH_FLOATING_TYPES(dp.scalar_type(), "causal_softmax_backward_", [&] {
    softmax_rows<scalar_t>(dp.data_ptr<scalar_t>(), pc.data_ptr<scalar_t>(), dp.size(0), dp.size(1),
                           dp.size(2));
  });
}

}  // namespace posbias
