#include "posbias/model/layers.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "backward_kernels.h"
#include "posbias/arch/logn_scale.h"
#include "posbias/model/dnnl_linear.h"
#include "posbias/model/dropout.h"
#include "posbias/model/gelu.h"
#include "posbias/model/gemm.h"

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
  if (cache != nullptr) {
    const auto xd = x.detach(), r = rstd.detach();
    *cache = {r, rms ? xd * r : (xd - mean.detach()) * r};
  }
  return y;
}

NormCache NormCache::rows(std::int64_t begin, std::int64_t n) const {
  return {rstd.narrow(1, begin, n), xhat.narrow(1, begin, n)};
}

// LayerNorm: dx = rstd·(g - mean(g) - x̂·mean(g·x̂)), g = dy·w.  RMSNorm drops the mean(g) term.
torch::Tensor NormImpl::backward(const NormCache& c, const torch::Tensor& dy) const {
  return norm_backward_rows(dy, c.xhat, c.rstd, weight.detach(), /*centered=*/!rms);
}

torch::Tensor NormImpl::backward_maps(const NormCache& c, const torch::Tensor& maps) const {
  return norm_backward_maps(maps, c.xhat, c.rstd, weight.detach(), /*centered=*/!rms);
}

// ---------------------------------------------------------------- positions
PositionContext make_position_context(const ModelConfig& cfg, std::int64_t length,
                                      torch::Dtype dtype, AttentionPath path,
                                      const torch::Tensor& position_ids) {
  PositionContext ctx;
  ctx.length = length;
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  if (cfg.rotary()) {
    const std::int64_t r = cfg.rotary_dims();
    ctx.rotary = r;
    ctx.interleaved = cfg.interleaved_rotary();
    // eval --rope-scaling: another base (ntk) or positions divided by F (pi); none: as trained.
    const RotaryScaled scaled = cfg.rope_scaling
                                    ? scaled_rotary(*cfg.rope_scaling, cfg.rope_theta, r)
                                    : RotaryScaled{cfg.rope_theta, 1.0};
    const auto inv_freq =
        torch::pow(scaled.theta, -torch::arange(0, r, 2, opts) / static_cast<double>(r));
    torch::Tensor positions =
        position_ids.defined() ? position_ids.to(opts) : torch::arange(length, opts);
    if (scaled.position_divisor != 1.0) positions = positions / scaled.position_divisor;
    const auto angles = position_ids.defined() ? positions.unsqueeze(-1) * inv_freq  // [B, L, R/2]
                                               : torch::outer(positions, inv_freq);  // [L, R/2]
    const auto full = ctx.interleaved ? angles.repeat_interleave(2, /*dim=*/-1)
                                      : torch::cat({angles, angles}, -1);
    // Per-sequence tables [B, 1, L, R] broadcast over the heads of q, k [B, H, L, E].
    const auto table = position_ids.defined() ? full.unsqueeze(1) : full;
    ctx.cos = table.cos().to(dtype);
    ctx.sin = table.sin().to(dtype);
  }
  ctx.score.window = cfg.window;
  if (const std::vector<double> slopes = cfg.alibi_slopes(); !slopes.empty())
    ctx.score.slopes = torch::tensor(slopes, opts);
  ctx.blockwise = path == AttentionPath::kBlockwise;
  if (cfg.logn_scale) {
    const std::vector<double> f = logn_factors(*cfg.logn_scale, length, cfg.window);
    ctx.logn = torch::tensor(f, opts).view({length, 1}).to(dtype);
  }
  if (!ctx.blockwise) ctx.bias = ctx.score.tile(0, length, 0, length).to(dtype);
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
  const torch::Tensor mask = dropout_mask(x.sizes(), ctx);
  return mask.defined() ? x * mask.to(x.scalar_type()) : x;
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
  if (cfg.null_sink)
    null_sink = register_parameter("null_sink", torch::full({heads}, *cfg.null_sink));
}

AttentionProjections AttentionImpl::project_heads(const torch::Tensor& x) {
  const auto b = x.size(0), l = x.size(1);
  const auto parts =
      dnnl_linear(x, qkv).split({heads * head_dim, kv_heads * head_dim, kv_heads * head_dim}, -1);
  return {parts[0].view({b, l, heads, head_dim}), parts[1].view({b, l, kv_heads, head_dim}),
          parts[2].view({b, l, kv_heads, head_dim})};
}

AttentionProjections AttentionImpl::project(const torch::Tensor& x, const PositionContext& pos,
                                            bool rotate) {
  const auto raw = project_heads(x);
  auto q = raw.q.transpose(1, 2);  // [B, H, L, E]
  auto k = raw.k.transpose(1, 2);
  auto v = raw.v.transpose(1, 2);
  if (rotate && pos.rotary > 0) {
    q = apply_rotary(q, pos);
    k = apply_rotary(k, pos);
  }
  if (pos.logn.defined()) q = q * pos.logn;  // row i's logits times s·log(n_i)
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
  const auto q = p.q.select(2, query).unsqueeze(2);                               // [B, H, 1, E]
  const auto bias = pos.score.tile(query, 1, 0, pos.length).to(q.scalar_type());  // [H or 1, 1, L]
  return (torch::matmul(q, p.k.transpose(-1, -2)) * scale + bias).squeeze(2);
}

namespace {

// Each row of scores [B, H, L, L] through softmax beside its head's sink logit (logits [H]), the
// sink's column dropped: the rows sum to 1 minus the sink's mass.
torch::Tensor softmax_with_null_sink(const torch::Tensor& scores, const torch::Tensor& logits) {
  const auto sink = logits.to(scores.scalar_type())
                        .view({1, -1, 1, 1})
                        .expand({scores.size(0), scores.size(1), scores.size(2), 1});
  return torch::softmax(torch::cat({scores, sink}, -1), -1).narrow(-1, 0, scores.size(-1));
}

}  // namespace

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const PositionContext& pos,
                                     AttentionCache* cache) {
  const auto b = x.size(0), l = x.size(1);
  const auto [q, k, v] = project(x, pos);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  if (pos.blockwise) {
    if (score_hook)
      throw std::invalid_argument("attention calibration runs on dense attention only");
    if (null_sink.defined()) {
      throw std::invalid_argument(
          "the null sink runs on dense attention only: use --attention dense or a shorter input");
    }
    if (pos.dropout && pos.dropout->p > 0) {
      throw std::invalid_argument(
          "blockwise attention has no attention dropout: use --dropout 0 or --attention dense");
    }
    torch::Tensor lse, entropy;
    torch::Tensor heads_z;
    if (cache != nullptr && !torch::GradMode::is_enabled()) {
      // A measurement's cache: no autograd, and each row's entropy read off the same tiles.
      auto f = blockwise_attention(q, k, v, pos.score, scale, kAttentionTile, /*entropy=*/true);
      heads_z = f.z, lse = f.lse, entropy = f.entropy;
    } else {
      heads_z = blockwise_attention_autograd(q, k, v, pos.score, scale, &lse);
    }
    auto z = heads_z.transpose(1, 2).reshape({b, l, heads * head_dim});
    if (z_hook) z = z_hook(z);
    if (cache != nullptr)
      *cache = {q.detach(), k.detach(), v.detach(), {}, lse, z.detach(), entropy};
    return dnnl_linear(z, out);
  }
  auto scores = torch::matmul(q, k.transpose(-1, -2)) * scale + pos.bias;
  if (score_hook) scores = score_hook(scores);
  const auto pattern =
      null_sink.defined() ? softmax_with_null_sink(scores, null_sink) : torch::softmax(scores, -1);
  auto z = torch::matmul(apply_dropout(pattern, pos), v)
               .transpose(1, 2)
               .reshape({b, l, heads * head_dim});
  if (z_hook) z = z_hook(z);
  if (cache != nullptr)
    *cache = {q.detach(), k.detach(), v.detach(), pattern.detach(), {}, z.detach()};
  return dnnl_linear(z, out);
}

namespace {

// Gradients of the query heads that shared a kv head, summed: [H, C, L, E] → [K, C, L, E].
torch::Tensor sum_query_groups(const torch::Tensor& t, std::int64_t kv_heads) {
  if (t.size(0) == kv_heads) return t;
  return t.reshape({kv_heads, t.size(0) / kv_heads, t.size(1), t.size(2), t.size(3)}).sum(1);
}

// Writes per-head gradients t [N, C, L, E] into columns [start, start + N·E) of rows [C, L, W].
void put_heads(const torch::Tensor& rows, std::int64_t start, const torch::Tensor& t) {
  const auto n = t.size(0), e = t.size(3);
  rows.narrow(-1, start, n * e).view({t.size(1), t.size(2), n, e}).permute({2, 0, 1, 3}).copy_(t);
}

}  // namespace

// The C cotangents are folded into the rows of every product, so each head costs a few
// large GEMMs instead of C·H small ones. Per head, dZ is laid out [L, C, E] (position-major,
// cotangents inside): then dP = dZ·Vᵀ and dQ = dS·K stack (i, c) along rows, dK = dSᵀ·Q reads
// dS as [L_i, C·L_j] (a transposed operand, no copy), and dV = Pᵀ·dZ stacks (c, e) along
// columns.
torch::Tensor AttentionImpl::backward(const AttentionCache& c, const torch::Tensor& dy,
                                      const PositionContext& pos) const {
  if (!c.pattern.defined()) return backward_blockwise(c, dy, pos);
  const auto cot = dy.size(0), b = dy.size(1), l = dy.size(2);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto dz_all = gemm::matmul(dy, out->weight);  // [C, B, L, H·E]
  const auto q_width = heads * head_dim, kv_width = kv_heads * head_dim;
  auto dqkv = torch::empty({cot, b, l, q_width + 2 * kv_width}, dy.options());
  for (std::int64_t bi = 0; bi < b; ++bi) {
    // The score scale is folded into q and k (small) instead of dS (C times larger).
    const auto q = c.q[bi] * scale, k = c.k[bi] * scale, v = c.v[bi],
               p = c.pattern[bi];  // [H, L, E], [H, L, L]
    const auto dz =
        dz_all.select(1, bi).view({cot, l, heads, head_dim}).permute({2, 1, 0, 3}).contiguous();
    auto ds = torch::empty({heads, l, cot, l}, dy.options());  // dP, then dS
    auto dq = torch::empty({heads, l, cot, head_dim}, dy.options());
    auto dv = torch::empty({heads, l, cot, head_dim}, dy.options());
    // Causal blocks of query rows [i0, i1): only keys j < i1 can carry attention, so dP, dQ
    // and dV skip the products above the diagonal blocks (about 3/8 of them at L = 256).
    for (std::int64_t h = 0; h < heads; ++h) {
      for (std::int64_t i0 = 0; i0 < l; i0 += kCausalBlock) {
        const std::int64_t i1 = std::min(l, i0 + kCausalBlock), n = i1 - i0;
        auto dp_block = ds[h].narrow(0, i0, n).view({n * cot, l}).narrow(1, 0, i1);
        gemm::mm_out(dp_block, dz[h].narrow(0, i0, n).view({n * cot, head_dim}),
                     v[h].narrow(0, 0, i1).t());
      }
    }
    causal_softmax_backward_(ds, p);  // dS = P ⊙ (dP − Σ dP ⊙ P), zero above the diagonal
    for (std::int64_t h = 0; h < heads; ++h) {
      for (std::int64_t i0 = 0; i0 < l; i0 += kCausalBlock) {
        const std::int64_t i1 = std::min(l, i0 + kCausalBlock), n = i1 - i0;
        auto dq_block = dq[h].narrow(0, i0, n).view({n * cot, head_dim});
        gemm::mm_out(dq_block, ds[h].narrow(0, i0, n).view({n * cot, l}).narrow(1, 0, i1),
                     k[h].narrow(0, 0, i1));
        // dV[j] = Σ_{i ≥ j} P[i, j]·dZ[i] for keys j in [i0, i1)
        auto dv_block = dv[h].narrow(0, i0, n).view({n, cot * head_dim});
        gemm::mm_out(dv_block, p[h].narrow(0, i0, l - i0).narrow(1, i0, n).t(),
                     dz[h].narrow(0, i0, l - i0).view({l - i0, cot * head_dim}));
      }
    }
    dq = dq.permute({0, 2, 1, 3});               // [H, C, L, E]
    if (pos.logn.defined()) dq = dq * pos.logn;  // the cached q was scaled by row
    dv = dv.permute({0, 2, 1, 3});
    auto dk = torch::empty({heads, cot * l, head_dim}, dy.options());
    gemm::bmm_out(dk, ds.view({heads, l, cot * l}).transpose(1, 2), q);
    dk = dk.view({heads, cot, l, head_dim});
    dk = sum_query_groups(dk, kv_heads);
    dv = sum_query_groups(dv, kv_heads);
    if (pos.rotary > 0) {
      dq = apply_rotary(dq, pos, /*inverse=*/true);
      dk = apply_rotary(dk, pos, /*inverse=*/true);
    }
    const auto rows = dqkv.select(1, bi);
    put_heads(rows, 0, dq);
    put_heads(rows, q_width, dk);
    put_heads(rows, q_width + kv_width, dv);
  }
  return gemm::matmul(dqkv, qkv->weight);  // [C, B, L, D]
}

torch::Tensor AttentionImpl::backward_blockwise(const AttentionCache& c, const torch::Tensor& dy,
                                                const PositionContext& pos) const {
  const auto cot = dy.size(0), b = dy.size(1), l = dy.size(2);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto dz = gemm::matmul(dy, out->weight)  // [C, B, L, H·E] → [C, B, H, L, E]
                      .view({cot, b, l, heads, head_dim})
                      .permute({0, 1, 3, 2, 4});
  const auto z = c.z.view({b, l, heads, head_dim}).transpose(1, 2);
  auto g = blockwise_attention_backward(c.q, c.k, c.v, z, c.lse, dz, pos.score, scale);
  if (pos.logn.defined()) g.dq = g.dq * pos.logn;  // the cached q was scaled by row
  if (kv_heads != heads) {  // query heads that shared a kv head: their gradients summed
    g.dk = g.dk.unflatten(2, {kv_heads, heads / kv_heads}).sum(3);
    g.dv = g.dv.unflatten(2, {kv_heads, heads / kv_heads}).sum(3);
  }
  if (pos.rotary > 0) {
    g.dq = apply_rotary(g.dq, pos, /*inverse=*/true);
    g.dk = apply_rotary(g.dk, pos, /*inverse=*/true);
  }
  auto rows = [&](const torch::Tensor& t) {  // [C, B, N, L, E] → [C, B, L, N·E]
    return t.permute({0, 1, 3, 2, 4}).reshape({cot, b, l, t.size(2) * head_dim});
  };
  return gemm::matmul(torch::cat({rows(g.dq), rows(g.dk), rows(g.dv)}, -1), qkv->weight);
}

torch::Tensor AttentionCache::pattern_row(const PositionContext& pos, std::int64_t row) const {
  if (pattern.defined()) return pattern.select(2, row);
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  return attention_row(q, k, lse, pos.score, scale, row);
}

// One query row i: dP_i = dZ_i·Vᵀ and dS_i are [H, C, L]; dQ is nonzero at i only, while
// dK[j] = dS_i[j]·q_i and dV[j] = P[i, j]·dZ_i are outer products at every position j ≤ i.
torch::Tensor AttentionImpl::backward_from_row(const AttentionCache& c, const torch::Tensor& dy_row,
                                               std::int64_t row, const PositionContext& pos) const {
  const auto cot = dy_row.size(0), b = dy_row.size(1), l = c.q.size(2);
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const auto dz_all = gemm::matmul(dy_row, out->weight);  // [C, B, 1, H·E]
  const auto q_width = heads * head_dim, kv_width = kv_heads * head_dim;
  auto dq_rows = torch::empty({cot, b, 1, q_width}, dy_row.options());
  auto dkv = torch::empty({cot, b, l, 2 * kv_width}, dy_row.options());
  PositionContext at_row = pos;  // the rotary tables at the query row, for dQ
  if (pos.rotary > 0)
    at_row.cos = pos.cos.narrow(-2, row, 1), at_row.sin = pos.sin.narrow(-2, row, 1);
  const auto p_rows = c.pattern_row(pos, row);  // [B, H, L]
  for (std::int64_t bi = 0; bi < b; ++bi) {
    const auto dz = dz_all.select(1, bi).view({cot, heads, head_dim}).transpose(0, 1);  // [H, C, E]
    const auto p = p_rows[bi].unsqueeze(1);                                             // [H, 1, L]
    const auto dp = torch::bmm(dz, c.v[bi].transpose(1, 2));                            // [H, C, L]
    const auto ds = p * (dp - (dp * p).sum(-1, /*keepdim=*/true));
    auto dq = torch::bmm(ds, c.k[bi] * scale).unsqueeze(2);  // [H, C, 1, E]
    if (pos.logn.defined()) dq = dq * pos.logn[row];         // the cached q was scaled by row
    auto dk = ds.unsqueeze(-1) * (c.q[bi].select(1, row) * scale).view({heads, 1, 1, head_dim});
    auto dv = p.unsqueeze(-1) * dz.unsqueeze(2);  // [H, C, L, E]
    dk = sum_query_groups(dk, kv_heads);
    dv = sum_query_groups(dv, kv_heads);
    if (pos.rotary > 0) {
      dq = apply_rotary(dq, at_row, /*inverse=*/true);
      dk = apply_rotary(dk, pos, /*inverse=*/true);
    }
    put_heads(dq_rows.select(1, bi), 0, dq);
    put_heads(dkv.select(1, bi), 0, dk);
    put_heads(dkv.select(1, bi), kv_width, dv);
  }
  auto dx = gemm::matmul(dkv, qkv->weight.narrow(0, q_width, 2 * kv_width));  // [C, B, L, D]
  dx.narrow(2, row, 1).add_(gemm::matmul(dq_rows, qkv->weight.narrow(0, 0, q_width)));
  return dx;
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

namespace {

// The activation's derivative at the fc output, computed once per forward so that every
// chunk of cotangents costs one multiply: GELU'(pre) [B, L, M], or for SwiGLU the pair
// (up·silu'(gate), silu(gate)) that multiplies dA into (dgate, dup), [B, L, 2M].
torch::Tensor activation_grad(const torch::Tensor& pre, bool gated) {
  if (gated) {
    const auto gu = pre.chunk(2, -1);
    const auto sig = torch::sigmoid(gu[0]);
    return torch::cat({gu[1] * sig * (1 + gu[0] * (1 - sig)), gu[0] * sig}, -1);
  }
  return gelu_tanh_grad(pre);
}

}  // namespace

MlpCache MlpCache::rows(std::int64_t begin, std::int64_t n) const {
  return {pre.narrow(1, begin, n), act_grad.narrow(1, begin, n)};
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x, MlpCache* cache) {
  const auto pre = dnnl_linear(x, fc);
  if (cache != nullptr) {
    cache->pre = pre.detach();
    cache->act_grad = activation_grad(cache->pre, gated);
  }
  if (gated) {
    const auto gu = pre.chunk(2, -1);
    return dnnl_linear(torch::silu(gu[0]) * gu[1], proj);
  }
  return dnnl_linear(gelu_tanh(pre), proj);
}

torch::Tensor MlpImpl::backward(const MlpCache& c, const torch::Tensor& dy) const {
  auto da = gemm::matmul(dy, proj->weight);  // [C, B, L, M]
  if (!gated) return gemm::matmul(da.mul_(c.act_grad), fc->weight);
  // act_grad as [B, L, 2, M]: the (dgate, dup) factors of each dA
  const auto dpre = (da.unsqueeze(-2) * c.act_grad.unflatten(-1, {2, da.size(-1)})).flatten(-2);
  return gemm::matmul(dpre, fc->weight);
}

torch::Tensor MlpImpl::position_maps(const MlpCache& c) const {
  const auto& f = c.act_grad;                                                         // [B, L, Mfc]
  const auto w = gated ? torch::cat({proj->weight, proj->weight}, 1) : proj->weight;  // [D, Mfc]
  return gemm::matmul(w.detach() * f.unsqueeze(-2), fc->weight.detach());  // [B, L, D, D]
}

}  // namespace posbias
