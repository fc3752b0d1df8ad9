#include "posbias/model/dropout.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cmath>

namespace posbias {

torch::Tensor dropout_mask(at::IntArrayRef sizes, const PositionContext& ctx) {
  if (!ctx.dropout || ctx.dropout->p <= 0) return {};
  RECORD_FUNCTION("posbias::dropout", c10::ArrayRef<const c10::IValue>{});
  const std::uint64_t threshold =
      static_cast<std::uint64_t>(std::llround(ctx.dropout->p * 65536.0));
  const float scale = static_cast<float>(1.0 / (1.0 - ctx.dropout->p));
  torch::Tensor mask = torch::empty(sizes, torch::kFloat32);
  float* m = mask.data_ptr<float>();
  const std::int64_t n = mask.numel();
  Rng& rng = ctx.dropout->rng;
  const std::int64_t rows_total = ctx.dropout->rows_total;
  if (rows_total > 0 && n > 0) {  // rows of the whole batch's mask (four elements a draw)
    const std::int64_t per_row = n / sizes[0], offset = ctx.dropout->row_begin * per_row;
    Rng r = rng;
    r.discard(static_cast<std::uint64_t>(offset / 4));
    std::uint64_t bits = r.next();
    for (std::int64_t i = 0, k = offset % 4; i < n; ++i, ++k) {
      if (k == 4) bits = r.next(), k = 0;
      m[i] = ((bits >> (16 * k)) & 0xFFFF) < threshold ? 0.0f : scale;
    }
    rng.discard(static_cast<std::uint64_t>((rows_total * per_row + 3) / 4));
    return mask;
  }
  for (std::int64_t i = 0; i < n; i += 4) {
    const std::uint64_t bits = rng.next();
    for (std::int64_t k = 0; k < 4 && i + k < n; ++k) {
      m[i + k] = ((bits >> (16 * k)) & 0xFFFF) < threshold ? 0.0f : scale;
    }
  }
  return mask;
}

namespace {

// No fused multiply-adds: each product is rounded before its sum, as libtorch's separate mul and
// add round them.
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

__attribute__((target_clones("avx512f", "avx2", "default"))) void residual_forward(
    const float* x, const float* a, const float* m, const float* ma, const float* mm, float* y,
    std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const float da = a[i] * ma[i], dm = m[i] * mm[i];
    y[i] = (x[i] + da) + dm;
  }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void residual_backward(
    const float* dy, const float* ma, const float* mm, float* da, float* dm, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    da[i] = dy[i] * ma[i];
    dm[i] = dy[i] * mm[i];
  }
}

#pragma GCC pop_options

constexpr std::int64_t kGrain = 32768;  // libtorch's elementwise grain

class DroppedResidual : public torch::autograd::Function<DroppedResidual> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                               const torch::Tensor& a, const torch::Tensor& m,
                               const torch::Tensor& mask_a, const torch::Tensor& mask_m) {
    RECORD_FUNCTION("posbias::dropped_residual", c10::ArrayRef<const c10::IValue>{});
    ctx->save_for_backward({mask_a, mask_m});
    auto y = torch::empty_like(x);
    const float *px = x.data_ptr<float>(), *pa = a.data_ptr<float>(), *pm = m.data_ptr<float>();
    const float *ma = mask_a.data_ptr<float>(), *mm = mask_m.data_ptr<float>();
    float* py = y.data_ptr<float>();
    at::parallel_for(0, x.numel(), kGrain, [&](std::int64_t b, std::int64_t e) {
      residual_forward(px + b, pa + b, pm + b, ma + b, mm + b, py + b, e - b);
    });
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    RECORD_FUNCTION("posbias::dropped_residual_backward", c10::ArrayRef<const c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto dy = grads[0].contiguous();
    auto da = torch::empty_like(dy), dm = torch::empty_like(dy);
    const float *g = dy.data_ptr<float>(), *ma = saved[0].data_ptr<float>(),
                *mm = saved[1].data_ptr<float>();
    float *pa = da.data_ptr<float>(), *pm = dm.data_ptr<float>();
    at::parallel_for(0, dy.numel(), kGrain, [&](std::int64_t b, std::int64_t e) {
      residual_backward(g + b, ma + b, mm + b, pa + b, pm + b, e - b);
    });
    return {grads[0], da, dm, {}, {}};
  }
};

}  // namespace

torch::Tensor dropped_residual(const torch::Tensor& x, const torch::Tensor& a,
                               const torch::Tensor& m, const torch::Tensor& mask_a,
                               const torch::Tensor& mask_m) {
  // Branches in another type (bf16 under train --precision bf16): the arithmetic apply_dropout
  // does, with the same masks.
  if (a.scalar_type() != torch::kFloat32 || m.scalar_type() != torch::kFloat32)
    return x + a * mask_a.to(a.scalar_type()) + m * mask_m.to(m.scalar_type());
  for (const auto* t : {&x, &a, &m, &mask_a, &mask_m}) {
    TORCH_CHECK(
        t->scalar_type() == torch::kFloat32 && t->device().is_cpu() && t->sizes() == x.sizes(),
        "dropped_residual: float32 CPU tensors of one shape");
  }
  return DroppedResidual::apply(x.contiguous(), a.contiguous(), m.contiguous(), mask_a.contiguous(),
                                mask_m.contiguous());
}

}  // namespace posbias
