#include "posbias/model/gelu.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cmath>
#include <cstdint>

#include "posbias/model/fast_exp.h"

namespace posbias {
namespace {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kCubic = 0.044715f;

// e^(-2z), z = √(2/π)(x + 0.044715x³), clamped to the float range; σ(2z) = 1 / (1 + e^(-2z)).
inline float exp_minus_2z(float x) {
  const float z = kSqrt2OverPi * (x + kCubic * x * x * x);
  float t = -2.0f * z;
  t = t < -87.0f ? -87.0f : t;
  t = t > 87.0f ? 87.0f : t;
  return fast_exp(t);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void gelu_forward(const float* x,
                                                                               float* y,
                                                                               std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] / (1.0f + exp_minus_2z(x[i]));
}

// d/dx x·σ(2z) = σ + x·σ(1 - σ)·2·dz/dx, dz/dx = √(2/π)(1 + 3·0.044715x²); 1 - σ is taken
// as e·σ, not by subtraction, which loses the small tail for large x.
inline float gelu_slope(float v) {
  const float e = exp_minus_2z(v);
  const float s = 1.0f / (1.0f + e);
  const float dz = kSqrt2OverPi * (1.0f + 3.0f * kCubic * v * v);
  return s + 2.0f * v * s * (e * s) * dz;
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void gelu_backward(const float* x,
                                                                                const float* dy,
                                                                                float* dx,
                                                                                std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) dx[i] = dy[i] * gelu_slope(x[i]);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void gelu_derivative(const float* x,
                                                                                  float* d,
                                                                                  std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) d[i] = gelu_slope(x[i]);
}

constexpr std::int64_t kGeluGrain = 16384;

class FusedGelu : public torch::autograd::Function<FusedGelu> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x) {
    RECORD_FUNCTION("posbias::gelu_tanh", c10::ArrayRef<const c10::IValue>{});
    ctx->save_for_backward({x});
    auto y = torch::empty_like(x);
    const float* in = x.data_ptr<float>();
    float* out = y.data_ptr<float>();
    at::parallel_for(0, x.numel(), kGeluGrain,
                     [&](std::int64_t b, std::int64_t e) { gelu_forward(in + b, out + b, e - b); });
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto x = ctx->get_saved_variables()[0];
    const auto dy = grads[0].contiguous();
    auto dx = torch::empty_like(x);
    const float* in = x.data_ptr<float>();
    const float* g = dy.data_ptr<float>();
    float* out = dx.data_ptr<float>();
    at::parallel_for(0, x.numel(), kGeluGrain, [&](std::int64_t b, std::int64_t e) {
      gelu_backward(in + b, g + b, out + b, e - b);
    });
    return {dx};
  }
};

// The fused kernels take contiguous float32 CPU tensors; anything else goes to torch's own.
bool fused_applies(const torch::Tensor& x) {
  return x.scalar_type() == torch::kFloat32 && x.is_contiguous() && x.device().is_cpu();
}

}  // namespace

torch::Tensor gelu_tanh(const torch::Tensor& x) {
  return fused_applies(x) ? FusedGelu::apply(x) : torch::gelu(x, "tanh");
}

torch::Tensor gelu_tanh_grad(const torch::Tensor& x) {
  if (!fused_applies(x)) return at::gelu_backward(torch::ones_like(x), x, "tanh");
  auto d = torch::empty_like(x);
  const float* in = x.data_ptr<float>();
  float* out = d.data_ptr<float>();
  at::parallel_for(0, x.numel(), kGeluGrain, [&](std::int64_t b, std::int64_t e) {
    gelu_derivative(in + b, out + b, e - b);
  });
  return d;
}

}  // namespace posbias
