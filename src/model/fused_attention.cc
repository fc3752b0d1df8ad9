#include "posbias/model/fused_attention.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cmath>
#include <limits>
#include <vector>

namespace posbias {
namespace {

constexpr float kMasked = -std::numeric_limits<float>::infinity();

struct Dims {
  std::int64_t b, l, h, e, r, w;  // batch, length, heads, head dim, rotary dims, qkv row width
  std::int64_t bias_heads;
  bool interleaved;
  float scale;
};

// 64 partial sums (four vector chains at AVX-512): the loop vectorizes without reassociating one
// accumulator, and the chains hide the FMA latency.
inline __attribute__((always_inline)) float dot(const float* a, const float* b, std::int64_t n) {
  float acc[64] = {};
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int k = 0; k < 64; ++k) acc[k] += a[i + k] * b[i + k];
  float s = 0;
  for (; i < n; ++i) s += a[i] * b[i];
  for (int k = 0; k < 16; ++k) s += (acc[k] + acc[k + 16]) + (acc[k + 32] + acc[k + 48]);
  return s;
}

inline __attribute__((always_inline)) void axpy(float a, const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

// One head row through rotary (layers.cc's apply_rotary): y = x·cos + rot(x)·sin on the first R
// dims, rot the 90° turn of each pair; the inverse (the transpose) uses −sin. Unrotated dims
// are copied.
inline __attribute__((always_inline)) void rotate(const float* x, float* y, const float* cos,
                                                  const float* sin, const Dims& d, bool inverse) {
  const std::int64_t half = d.r / 2;
  for (std::int64_t i = 0; i < d.r; ++i) {
    float partner;
    if (d.interleaved)
      partner = i % 2 == 0 ? -x[i + 1] : x[i - 1];
    else
      partner = i < half ? -x[i + half] : x[i - half];
    y[i] = x[i] * cos[i] + partner * (inverse ? -sin[i] : sin[i]);
  }
  for (std::int64_t i = d.r; i < d.e; ++i) y[i] = x[i];
}

struct Buffers {
  const float *qkv, *cos, *sin, *bias, *mask;
  float *qr, *kr, *p;  // rotated q and k [B, H, L, E], pattern [B, H, L, L]
};

// Sequence b: rotated q and k, the pattern, and z [B, L, H·E].
__attribute__((target_clones("avx512f", "avx2", "default"))) void forward_sequence(
    std::int64_t b, const Dims& d, const Buffers& buf, float* z) {
  const std::int64_t l = d.l, e = d.e, w = d.w;
  const float* rows = buf.qkv + b * l * w;
  float s[kFusedAttentionMaxLength];
  for (std::int64_t h = 0; h < d.h; ++h) {
    const std::int64_t head = (b * d.h + h) * l;
    float* q = buf.qr + head * e;
    float* k = buf.kr + head * e;
    for (std::int64_t i = 0; i < l; ++i) {
      rotate(rows + i * w + h * e, q + i * e, buf.cos + i * d.r, buf.sin + i * d.r, d, false);
      rotate(rows + i * w + (d.h + h) * e, k + i * e, buf.cos + i * d.r, buf.sin + i * d.r, d,
             false);
    }
    const float* v = rows + (2 * d.h + h) * e;  // row stride w
    const float* bias = buf.bias + (d.bias_heads == 1 ? 0 : h) * l * l;
    float* p = buf.p + head * l;
    const float* mask = buf.mask ? buf.mask + head * l : nullptr;
    for (std::int64_t i = 0; i < l; ++i) {
      float top = kMasked;
      for (std::int64_t j = 0; j < l; ++j) {
        const float bij = bias[i * l + j];
        s[j] = bij == kMasked ? kMasked : dot(q + i * e, k + j * e, e) * d.scale + bij;
        top = std::max(top, s[j]);
      }
      float sum = 0;
      for (std::int64_t j = 0; j < l; ++j) {
        s[j] = s[j] == kMasked ? 0.0f : std::exp(s[j] - top);
        sum += s[j];
      }
      float* zi = z + (b * l + i) * d.h * e + h * e;
      for (std::int64_t c = 0; c < e; ++c) zi[c] = 0;
      for (std::int64_t j = 0; j < l; ++j) {
        const float pij = s[j] / sum;
        p[i * l + j] = pij;
        const float kept = mask ? pij * mask[i * l + j] : pij;
        if (kept != 0) axpy(kept, v + j * w, zi, e);
      }
    }
  }
}

// Sequence b's dqkv rows [L, 3·H·E] from dz [B, L, H·E]: dP = dZ·Vᵀ (through the dropout mask),
// dS = P ⊙ (dP − Σ_j P ⊙ dP), dQ = dS·K·scale, dK = dSᵀ·Q·scale, dV = (P ⊙ mask)ᵀ·dZ, with
// dQ and dK turned back through rotary. work holds L·E + E floats.
__attribute__((target_clones("avx512f", "avx2", "default"))) void backward_sequence(
    std::int64_t b, const Dims& d, const Buffers& buf, const float* dz, float* dqkv, float* work) {
  const std::int64_t l = d.l, e = d.e, w = d.w;
  const float* rows = buf.qkv + b * l * w;
  float* out = dqkv + b * l * w;
  float ds[kFusedAttentionMaxLength];
  for (std::int64_t h = 0; h < d.h; ++h) {
    const std::int64_t head = (b * d.h + h) * l;
    const float* q = buf.qr + head * e;
    const float* k = buf.kr + head * e;
    const float* v = rows + (2 * d.h + h) * e;
    const float* p = buf.p + head * l;
    const float* mask = buf.mask ? buf.mask + head * l : nullptr;
    float* dk = work;  // rotated dK [L, E]
    float* dq = work + l * e;
    float* dv = out + (2 * d.h + h) * e;  // row stride w
    for (std::int64_t c = 0; c < l * e; ++c) dk[c] = 0;
    for (std::int64_t j = 0; j < l; ++j)
      for (std::int64_t c = 0; c < e; ++c) dv[j * w + c] = 0;
    for (std::int64_t i = 0; i < l; ++i) {
      const float* dzi = dz + (b * l + i) * d.h * e + h * e;
      const float* pi = p + i * l;
      float t = 0;
      for (std::int64_t j = 0; j < l; ++j) {
        if (pi[j] == 0) {
          ds[j] = 0;
          continue;
        }
        const float dpd = dot(dzi, v + j * w, e);
        ds[j] = mask ? dpd * mask[i * l + j] : dpd;
        t += pi[j] * ds[j];
      }
      for (std::int64_t c = 0; c < e; ++c) dq[c] = 0;
      for (std::int64_t j = 0; j < l; ++j) {
        if (pi[j] == 0) continue;
        const float dsj = pi[j] * (ds[j] - t) * d.scale;
        axpy(dsj, k + j * e, dq, e);
        axpy(dsj, q + i * e, dk + j * e, e);
        const float kept = mask ? pi[j] * mask[i * l + j] : pi[j];
        if (kept != 0) axpy(kept, dzi, dv + j * w, e);
      }
      rotate(dq, out + i * w + h * e, buf.cos + i * d.r, buf.sin + i * d.r, d, true);
    }
    for (std::int64_t j = 0; j < l; ++j)
      rotate(dk + j * e, out + j * w + (d.h + h) * e, buf.cos + j * d.r, buf.sin + j * d.r, d,
             true);
  }
}

Dims dims_of(const torch::Tensor& qkv, const torch::Tensor& bias, const FusedAttentionShape& s) {
  return {qkv.size(0),  qkv.size(1),   s.heads,
          s.head_dim,   s.rotary,      qkv.size(2),
          bias.size(0), s.interleaved, static_cast<float>(s.scale)};
}

// Absent operands travel as empty tensors (a custom Function's inputs must be defined).
const float* ptr_or_null(const torch::Tensor& t) {
  return t.numel() > 0 ? t.data_ptr<float>() : nullptr;
}

class FusedAttention : public torch::autograd::Function<FusedAttention> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& qkv,
                               const torch::Tensor& cos, const torch::Tensor& sin,
                               const torch::Tensor& bias, const torch::Tensor& mask,
                               std::int64_t heads, std::int64_t head_dim, std::int64_t rotary,
                               bool interleaved, double scale) {
    RECORD_FUNCTION("posbias::fused_attention", c10::ArrayRef<const c10::IValue>{});
    const Dims d = dims_of(qkv, bias, {heads, head_dim, rotary, interleaved, scale});
    auto qr = torch::empty({d.b, d.h, d.l, d.e}, qkv.options());
    auto kr = torch::empty_like(qr);
    auto p = torch::empty({d.b, d.h, d.l, d.l}, qkv.options());
    auto z = torch::empty({d.b, d.l, d.h * d.e}, qkv.options());
    const Buffers buf{qkv.data_ptr<float>(),  ptr_or_null(cos),   ptr_or_null(sin),
                      bias.data_ptr<float>(), ptr_or_null(mask),  qr.data_ptr<float>(),
                      kr.data_ptr<float>(),   p.data_ptr<float>()};
    float* out = z.data_ptr<float>();
    at::parallel_for(0, d.b, 1, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; ++b) forward_sequence(b, d, buf, out);
    });
    ctx->save_for_backward({qkv, cos, sin, bias, mask, qr, kr, p});
    ctx->saved_data["heads"] = heads;
    ctx->saved_data["head_dim"] = head_dim;
    ctx->saved_data["rotary"] = rotary;
    ctx->saved_data["interleaved"] = interleaved;
    ctx->saved_data["scale"] = scale;
    return z;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    RECORD_FUNCTION("posbias::fused_attention_backward", c10::ArrayRef<const c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto& qkv = saved[0];
    const FusedAttentionShape shape{
        ctx->saved_data["heads"].toInt(), ctx->saved_data["head_dim"].toInt(),
        ctx->saved_data["rotary"].toInt(), ctx->saved_data["interleaved"].toBool(),
        ctx->saved_data["scale"].toDouble()};
    const Dims d = dims_of(qkv, saved[3], shape);
    const auto dz = grads[0].contiguous();
    auto dqkv = torch::empty_like(qkv);
    const Buffers buf{qkv.data_ptr<float>(),      ptr_or_null(saved[1]),
                      ptr_or_null(saved[2]),      saved[3].data_ptr<float>(),
                      ptr_or_null(saved[4]),      saved[5].data_ptr<float>(),
                      saved[6].data_ptr<float>(), saved[7].data_ptr<float>()};
    const float* g = dz.data_ptr<float>();
    float* out = dqkv.data_ptr<float>();
    at::parallel_for(0, d.b, 1, [&](std::int64_t begin, std::int64_t end) {
      std::vector<float> work(static_cast<std::size_t>((d.l + 1) * d.e));
      for (std::int64_t b = begin; b < end; ++b) backward_sequence(b, d, buf, g, out, work.data());
    });
    return {dqkv, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  }
};

}  // namespace

bool fused_attention_applies(const torch::Tensor& qkv, const torch::Tensor& bias) {
  return qkv.dim() == 3 && qkv.scalar_type() == torch::kFloat32 && qkv.device().is_cpu() &&
         qkv.size(1) <= kFusedAttentionMaxLength && bias.defined() &&
         bias.scalar_type() == torch::kFloat32;
}

torch::Tensor fused_attention(const torch::Tensor& qkv, const torch::Tensor& cos,
                              const torch::Tensor& sin, const torch::Tensor& bias,
                              const torch::Tensor& dropout_mask, const FusedAttentionShape& shape) {
  TORCH_CHECK(
      fused_attention_applies(qkv, bias) && qkv.size(2) == 3 * shape.heads * shape.head_dim &&
          (shape.rotary == 0 || (cos.size(1) == shape.rotary && cos.size(0) >= qkv.size(1))),
      "fused_attention: qkv ", qkv.sizes(), " does not fit the shape");
  auto contiguous = [&](const torch::Tensor& t) {
    return t.defined() ? t.contiguous() : torch::empty({0}, qkv.options());
  };
  return FusedAttention::apply(qkv.contiguous(), contiguous(cos), contiguous(sin),
                               bias.contiguous(), contiguous(dropout_mask), shape.heads,
                               shape.head_dim, shape.rotary, shape.interleaved, shape.scale);
}

}  // namespace posbias
