#include "posbias/mech/head_scores.h"

#include <algorithm>
#include <cmath>

namespace posbias {

std::string head_label(double positional, double symbolic, double gap) {
  if (gap < 0.01 || (positional >= 0.9 && symbolic >= 0.9)) return "uniform";
  if (positional >= 0.9 && symbolic <= 0.5) return "positional";
  if (symbolic >= 0.9 && positional <= 0.5) return "symbolic";
  return "mixed";
}

SwapAttention swap_attention(Attention& attn, const torch::Tensor& x, const PositionContext& pos) {
  torch::NoGradGuard no_grad;
  const std::int64_t len = x.size(1), query = len - 1, n = len - 1;
  const auto raw = attn->project(x, pos, /*rotate=*/false);  // [B, H, L, E]
  const double scale = 1.0 / std::sqrt(static_cast<double>(attn->head_dim));
  // R_pᵀ q for every position p, q being the query's rotated vector.
  torch::Tensor q_at = raw.q;
  if (pos.rotary > 0) q_at = apply_rotary(raw.q, pos);
  torch::Tensor qp = q_at.select(2, query).unsqueeze(2).expand_as(raw.q).contiguous();
  if (pos.rotary > 0) qp = apply_rotary(qp, pos, /*inverse=*/true);
  const auto bias =  // [H or 1, L(p), 1]
      pos.score.tile(query, 1, 0, len).transpose(1, 2).to(raw.q.scalar_type());
  // M[b, h, p, m]: the logit of key content m placed at position p.
  const auto m = (torch::matmul(qp, raw.k.transpose(-1, -2)) * scale + bias).to(torch::kFloat64);
  const auto diag = m.diagonal(0, -2, -1);  // [B, H, L] the original logits
  const auto shift = std::get<0>(diag.max(-1, /*keepdim=*/true));
  const auto e = torch::exp(m - shift.unsqueeze(-1));
  const auto ed = e.diagonal(0, -2, -1);  // [B, H, L]
  const auto z = ed.sum(-1, /*keepdim=*/true);
  SwapAttention s;
  s.a = ed / z;
  const auto en = e.narrow(2, 0, n).narrow(3, 0, n);  // [B, H, n, n]
  const auto ei = ed.narrow(2, 0, n);
  // The denominator without keys i and j (clamped: rounding must not make it negative).
  const auto rest = (z.unsqueeze(-1) - ei.unsqueeze(-1) - ei.unsqueeze(-2)).clamp_min(0.0);
  const auto z_swapped = rest + en + en.transpose(-1, -2);
  s.swapped_i = en / z_swapped;
  s.swapped_j = en.transpose(-1, -2) / z_swapped;
  return s;
}

std::vector<HeadScore> score_attention_heads(Attention& attn, const torch::Tensor& x,
                                             const PositionContext& pos, double tau) {
  torch::NoGradGuard no_grad;
  const std::int64_t b = x.size(0), n = x.size(1) - 1, heads = attn->heads;
  if (n < 2)
    throw std::invalid_argument("head scores need at least 3 positions (2 before the query)");
  const SwapAttention s = swap_attention(attn, x, pos);
  const auto a = s.a.narrow(2, 0, n);
  const auto ai = a.unsqueeze(-1), aj = a.unsqueeze(-2);  // [B, H, n, 1], [B, H, 1, n]
  const auto& pi = s.swapped_i;
  const auto& pj = s.swapped_j;
  const auto norms =
      (torch::sqrt(ai * ai + aj * aj) * torch::sqrt(pi * pi + pj * pj)).clamp_min(1e-300);
  const auto positional = (pi * ai + pj * aj) / norms;
  const auto symbolic = (pi * aj + pj * ai) / norms;
  const auto gap = (ai - aj).abs();
  // Pairs i < j only; weights softmax(gap / τ) over them, per sample and head.
  const auto upper = torch::ones({n, n}, torch::kBool).triu(1);
  const auto logits =
      (gap / tau).masked_fill(upper.logical_not(), -std::numeric_limits<double>::infinity());
  const auto w = torch::softmax(logits.view({b, heads, n * n}), -1).view({b, heads, n, n});
  auto weighted = [&](const torch::Tensor& t) { return (w * t).sum({-2, -1}).mean(0); };  // [H]
  const auto pos_h = weighted(positional), sym_h = weighted(symbolic), gap_h = weighted(gap);
  std::vector<HeadScore> out;
  for (std::int64_t h = 0; h < heads; ++h) {
    HeadScore hs;
    hs.layer = -1;
    hs.head = static_cast<int>(h);
    hs.positional = pos_h[h].item<double>();
    hs.symbolic = sym_h[h].item<double>();
    hs.gap = gap_h[h].item<double>();
    hs.label = head_label(hs.positional, hs.symbolic, hs.gap);
    out.push_back(hs);
  }
  return out;
}

std::vector<HeadScore> score_heads(Transformer& model, const torch::Tensor& ids, double tau,
                                   std::int64_t batch) {
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  const std::int64_t total = ids.size(0);
  const auto& cfg = model->config();
  if (batch <= 0) {
    const double cells = static_cast<double>(cfg.heads) * static_cast<double>(ids.size(1)) *
                         static_cast<double>(ids.size(1));
    batch = std::clamp<std::int64_t>(static_cast<std::int64_t>(1e7 / cells), 1, 64);
  }
  // Sums over samples per (layer, head), then the mean.
  std::vector<HeadScore> sums(static_cast<std::size_t>(cfg.layers * cfg.heads));
  for (std::int64_t begin = 0; begin < total; begin += batch) {
    const auto chunk = ids.narrow(0, begin, std::min(batch, total - begin));
    ForwardCache cache;
    cache.checkpoint = true;  // only each block's input is read
    model->forward_embeddings(model->embed(chunk), &cache);
    for (std::int64_t l = 0; l < cfg.layers; ++l) {
      Block& block = model->layers[static_cast<std::size_t>(l)];
      const auto x = block->ln1(cache.blocks[static_cast<std::size_t>(l)].resid_pre);
      const auto layer = score_attention_heads(block->attn, x, cache.pos, tau);
      const double k = static_cast<double>(chunk.size(0));
      for (const HeadScore& hs : layer) {
        HeadScore& acc = sums[static_cast<std::size_t>(l * cfg.heads + hs.head)];
        acc.positional += k * hs.positional;
        acc.symbolic += k * hs.symbolic;
        acc.gap += k * hs.gap;
      }
    }
  }
  model->train(was_training);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    HeadScore& hs = sums[i];
    hs.layer = static_cast<int>(i / static_cast<std::size_t>(cfg.heads));
    hs.head = static_cast<int>(i % static_cast<std::size_t>(cfg.heads));
    hs.positional /= static_cast<double>(total);
    hs.symbolic /= static_cast<double>(total);
    hs.gap /= static_cast<double>(total);
    hs.label = head_label(hs.positional, hs.symbolic, hs.gap);
  }
  return sums;
}

}  // namespace posbias
