#include "posbias/model/layers.h"

#include <cmath>
#include <limits>

#include "posbias/model/gelu.h"

namespace posbias {

using torch::indexing::Slice;

// ---------------------------------------------------------------- Norm
NormImpl::NormImpl(std::int64_t dim, bool rms_norm, double epsilon) : rms(rms_norm), eps(epsilon) {
  weight = register_parameter("weight", torch::ones({dim}));
  if (!rms) bias = register_parameter("bias", torch::zeros({dim}));
}

torch::Tensor NormImpl::forward(const torch::Tensor& x, NormCache* cache) {
  torch::Tensor mean, rstd, y;
  if (rms) {
    rstd = torch::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps);
    y = x * rstd * weight;
  } else {
    auto [out, m, r] = at::native_layer_norm(x, {x.size(-1)}, weight, bias, eps);
    y = out, mean = m, rstd = r;
  }
  if (cache != nullptr) *cache = {x.detach(), mean.defined() ? mean.detach() : mean, rstd.detach()};
  return y;
}

// LayerNorm: dx = rstd·(g - mean(g) - x̂·mean(g·x̂)), g = dy·w.  RMSNorm drops the mean(g) term.
torch::Tensor NormImpl::backward(const NormCache& c, const torch::Tensor& dy) const {
  const torch::Tensor xhat = rms ? c.input * c.rstd : (c.input - c.mean) * c.rstd;
  const torch::Tensor g = dy * weight;
  torch::Tensor inner = g - xhat * (g * xhat).mean(-1, /*keepdim=*/true);
  if (!rms) inner = inner - g.mean(-1, /*keepdim=*/true);
  return inner * c.rstd;
}

// ---------------------------------------------------------------- positions
PositionContext make_position_context(const ModelConfig& cfg, std::int64_t length,
                                      torch::Dtype dtype) {
  PositionContext ctx;
  ctx.length = length;
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  if (cfg.pos == PosEncoding::kRope) {
    const std::int64_t r = cfg.rotary_dims();
    ctx.rotary = r;
    ctx.interleaved = cfg.family == Family::kGptj;
    const auto inv_freq =
        torch::pow(cfg.rope_theta, -torch::arange(0, r, 2, opts) / static_cast<double>(r));
    const auto angles = torch::outer(torch::arange(length, opts), inv_freq);  // [L, R/2]
    const auto full =
        ctx.interleaved ? angles.repeat_interleave(2, /*dim=*/1) : torch::cat({angles, angles}, 1);
    ctx.cos = full.cos().to(dtype);
    ctx.sin = full.sin().to(dtype);
  }
  const auto causal = torch::ones({length, length}, torch::kBool).tril();
  const double neg_inf = -std::numeric_limits<double>::infinity();
  torch::Tensor bias =
      torch::zeros({length, length}, opts).masked_fill(causal.logical_not(), neg_inf);
  if (cfg.pos == PosEncoding::kAlibi) {
    const auto idx = torch::arange(length, opts);
    const auto distance = (idx.unsqueeze(1) - idx.unsqueeze(0)).clamp_min(0);  // i - j
    const auto slopes =
        torch::exp2(-8.0 * torch::arange(1, cfg.heads + 1, opts) / static_cast<double>(cfg.heads));
    bias = bias.unsqueeze(0) - slopes.view({-1, 1, 1}) * distance.unsqueeze(0);
  } else {
    bias = bias.unsqueeze(0);
  }
  ctx.bias = bias.to(dtype);
  return ctx;
}

namespace {

// The 90° rotation of each rotary pair: halves (-x2, x1) or interleaved (-x_{2i+1}, x_{2i}).
torch::Tensor rotate_pairs(const torch::Tensor& x, bool interleaved) {
  if (interleaved) {
    const auto even = x.index({"...", Slice(0, torch::indexing::None, 2)});
    const auto odd = x.index({"...", Slice(1, torch::indexing::None, 2)});
    return torch::stack({-odd, even}, -1).flatten(-2);
  }
  const auto half = x.size(-1) / 2;
  return torch::cat(
      {-x.index({"...", Slice(half, torch::indexing::None)}), x.index({"...", Slice(0, half)})},
      -1);
}

}  // namespace

torch::Tensor apply_dropout(const torch::Tensor& x, const PositionContext& ctx) {
  if (!ctx.dropout || ctx.dropout->p <= 0) return x;
  const std::uint64_t threshold =
      static_cast<std::uint64_t>(std::llround(ctx.dropout->p * 65536.0));
  const float scale = static_cast<float>(1.0 / (1.0 - ctx.dropout->p));
  torch::Tensor mask = torch::empty(x.sizes(), torch::kFloat32);
  float* m = mask.data_ptr<float>();
  const std::int64_t n = mask.numel();
  Rng& rng = ctx.dropout->rng;
  for (std::int64_t i = 0; i < n; i += 4) {
    const std::uint64_t bits = rng.next();
    for (std::int64_t k = 0; k < 4 && i + k < n; ++k) {
      m[i + k] = ((bits >> (16 * k)) & 0xFFFF) < threshold ? 0.0f : scale;
    }
  }
  return x * mask.to(x.scalar_type());
}

torch::Tensor apply_rotary(const torch::Tensor& x, const PositionContext& ctx, bool inverse) {
  const std::int64_t r = ctx.rotary;
  const auto head = x.size(-1) == r ? x : x.index({"...", Slice(0, r)});
  const torch::Tensor sin = inverse ? -ctx.sin : ctx.sin;
  const auto rotated = head * ctx.cos + rotate_pairs(head, ctx.interleaved) * sin;
  if (x.size(-1) == r) return rotated;
  return torch::cat({rotated, x.index({"...", Slice(r, torch::indexing::None)})}, -1);
}

// ---------------------------------------------------------------- attention
AttentionImpl::AttentionImpl(const ModelConfig& cfg)
    : heads(cfg.heads), kv_heads(cfg.kv_heads), head_dim(cfg.head_dim()) {
  qkv = register_module("qkv", torch::nn::Linear(torch::nn::LinearOptions(
                                                     cfg.d_model, (heads + 2 * kv_heads) * head_dim)
                                                     .bias(cfg.qkv_bias())));
  out = register_module(
      "out", torch::nn::Linear(
                 torch::nn::LinearOptions(heads * head_dim, cfg.d_model).bias(cfg.out_bias())));
}

AttentionProjections AttentionImpl::project(const torch::Tensor& x, const PositionContext& pos,
                                            bool rotate) {
  const auto b = x.size(0), l = x.size(1);
  const auto parts = qkv(x).split({heads * head_dim, kv_heads * head_dim, kv_heads * head_dim}, -1);
  auto q = parts[0].view({b, l, heads, head_dim}).transpose(1, 2);  // [B, H, L, E]
  auto k = parts[1].view({b, l, kv_heads, head_dim}).transpose(1, 2);
  auto v = parts[2].view({b, l, kv_heads, head_dim}).transpose(1, 2);
  if (rotate && pos.rotary > 0) {
    q = apply_rotary(q, pos);
    k = apply_rotary(k, pos);
  }
  if (kv_heads != heads) {
    k = k.repeat_interleave(heads / kv_heads, /*dim=*/1);
    v = v.repeat_interleave(heads / kv_heads, /*dim=*/1);
  }
  return {q, k, v};
}

torch::Tensor AttentionImpl::query_scores(const torch::Tensor& x, const PositionContext& pos,
                                          std::int64_t query) {
  const auto p = project(x, pos);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto q = p.q.select(2, query).unsqueeze(2);          // [B, H, 1, E]
  const auto bias = pos.bias.select(1, query).unsqueeze(1);  // [H or 1, 1, L]
  return (torch::matmul(q, p.k.transpose(-1, -2)) * scale + bias).squeeze(2);
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const PositionContext& pos,
                                     AttentionCache* cache) {
  const auto b = x.size(0), l = x.size(1);
  const auto [q, k, v] = project(x, pos);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto scores = torch::matmul(q, k.transpose(-1, -2)) * scale + pos.bias;
  const auto pattern = torch::softmax(scores, -1);
  const auto z = torch::matmul(apply_dropout(pattern, pos), v)
                     .transpose(1, 2)
                     .reshape({b, l, heads * head_dim});
  if (cache != nullptr) *cache = {q.detach(), k.detach(), v.detach(), pattern.detach(), z.detach()};
  return out(z);
}

// The C cotangents are folded into the row dimension of every product, so each head costs
// a few large GEMMs ([C·L, E] × [E, L], ...) instead of C·H small ones.
torch::Tensor AttentionImpl::backward(const AttentionCache& c, const torch::Tensor& dy,
                                      const PositionContext& pos) const {
  const auto cot = dy.size(0), b = dy.size(1), l = dy.size(2);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto dz_all = torch::matmul(dy, out->weight);  // [C, B, L, H·E]
  std::vector<torch::Tensor> per_batch;
  for (std::int64_t bi = 0; bi < b; ++bi) {
    // The score scale is folded into q and k (small) instead of dS (C times larger).
    const auto q = c.q[bi] * scale, k = c.k[bi] * scale, v = c.v[bi],
               p = c.pattern[bi];  // [H, L, E], [H, L, L]
    // dz per head with cotangents stacked along rows: [H, C·L, E]
    const auto dz =
        dz_all.select(1, bi).view({cot, l, heads, head_dim}).permute({2, 0, 1, 3}).contiguous();
    auto ds = torch::bmm(dz.view({heads, cot * l, head_dim}), v.transpose(1, 2))
                  .view({heads, cot, l, l});  // dP
    const auto pb = p.unsqueeze(1);           // [H, 1, L, L]
    const auto row = (ds * pb).sum(-1, /*keepdim=*/true);
    ds.sub_(row).mul_(pb);  // softmax backward, in place: dS = P ⊙ (dP - Σ dP ⊙ P)
    auto dq = torch::bmm(ds.view({heads, cot * l, l}), k).view({heads, cot, l, head_dim});
    auto dk = torch::bmm(ds.transpose(-1, -2).reshape({heads, cot * l, l}), q)
                  .view({heads, cot, l, head_dim});
    // dV[h, c] = P[h]ᵀ dZ[h, c]: cotangents stacked along columns, [H, L, C·E]
    const auto dz_cols = dz.view({heads, cot, l, head_dim})
                             .permute({0, 2, 1, 3})
                             .reshape({heads, l, cot * head_dim});
    auto dv = torch::bmm(p.transpose(1, 2), dz_cols)
                  .view({heads, l, cot, head_dim})
                  .permute({0, 2, 1, 3});
    if (kv_heads != heads) {  // each kv head served heads/kv_heads query heads
      const auto group = heads / kv_heads;
      dk = dk.reshape({kv_heads, group, cot, l, head_dim}).sum(1);
      dv = dv.reshape({kv_heads, group, cot, l, head_dim}).sum(1);
    }
    if (pos.rotary > 0) {
      dq = apply_rotary(dq, pos, /*inverse=*/true);
      dk = apply_rotary(dk, pos, /*inverse=*/true);
    }
    auto rows = [&](const torch::Tensor& t) {
      return t.permute({1, 2, 0, 3}).reshape({cot, l, -1});
    };  // [C, L, ·]
    per_batch.push_back(torch::cat({rows(dq), rows(dk), rows(dv)}, -1));
  }
  return torch::matmul(torch::stack(per_batch, 1), qkv->weight);  // [C, B, L, D]
}

// ---------------------------------------------------------------- MLP
MlpImpl::MlpImpl(const ModelConfig& cfg) : gated(cfg.gated_mlp()) {
  const auto width = gated ? 2 * cfg.mlp : cfg.mlp;
  fc = register_module(
      "fc", torch::nn::Linear(torch::nn::LinearOptions(cfg.d_model, width).bias(cfg.mlp_bias())));
  proj = register_module(
      "proj",
      torch::nn::Linear(torch::nn::LinearOptions(cfg.mlp, cfg.d_model).bias(cfg.mlp_bias())));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x, MlpCache* cache) {
  const auto pre = fc(x);
  if (cache != nullptr) cache->pre = pre.detach();
  if (gated) {
    const auto gu = pre.chunk(2, -1);
    return proj(torch::silu(gu[0]) * gu[1]);
  }
  return proj(gelu_tanh(pre));
}

torch::Tensor MlpImpl::backward(const MlpCache& c, const torch::Tensor& dy) const {
  const auto da = torch::matmul(dy, proj->weight);  // [C, B, L, M]
  torch::Tensor dpre;
  if (gated) {
    const auto gu = c.pre.chunk(2, -1);
    const auto sig = torch::sigmoid(gu[0]);
    const auto silu = gu[0] * sig;
    const auto dsilu = sig * (1 + gu[0] * (1 - sig));
    dpre = torch::cat({da * gu[1] * dsilu, da * silu}, -1);
  } else {
    // d/dx of 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))
    const double k = std::sqrt(2.0 / M_PI);
    const auto& x = c.pre;
    const auto t = torch::tanh(k * (x + 0.044715 * x.pow(3)));
    const auto dgelu = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x);
    dpre = da * dgelu;
  }
  return torch::matmul(dpre, fc->weight);
}

}  // namespace posbias
