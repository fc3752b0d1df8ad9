#include "posbias/mech/head_scores.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "posbias/stats/seed_interval.h"

namespace posbias {

HeadLabel head_label(double positional, double symbolic, double gap, double self,
                     double threshold) {
  if (self >= threshold) return HeadLabel::kReflexive;
  if (gap < 0.01 || (positional >= threshold && symbolic >= threshold)) return HeadLabel::kUniform;
  if (positional >= threshold && symbolic <= 0.5) return HeadLabel::kPositional;
  if (symbolic >= threshold && positional <= 0.5) return HeadLabel::kSymbolic;
  return HeadLabel::kMixed;
}

namespace {

// What every tile of the swap needs: the query's rotated vector placed at each position
// (R_pᵀ q), the key contents, the query's bias row, and the original row's exponentials.
struct SwapContext {
  torch::Tensor qp, k, bias;  // [B, H, L, E], [B, H, L, E], [H or 1, L, 1] (the input's dtype)
  torch::Tensor shift;        // [B, H, 1]: the original row's largest logit (double)
  torch::Tensor ed;           // [B, H, L]: exp(original logit − shift) (double)
  torch::Tensor z;            // [B, H, 1]: their sum
  double scale = 1;
};

SwapContext swap_context(Attention& attn, const torch::Tensor& x, const PositionContext& pos) {
  const std::int64_t len = x.size(1), query = len - 1;
  const auto raw = attn->project(x, pos, /*rotate=*/false);  // [B, H, L, E]
  SwapContext c;
  c.scale = 1.0 / std::sqrt(static_cast<double>(attn->head_dim));
  torch::Tensor q_at = raw.q;
  if (pos.rotary > 0) q_at = apply_rotary(raw.q, pos);
  c.qp = q_at.select(2, query).unsqueeze(2).expand_as(raw.q).contiguous();
  if (pos.rotary > 0) c.qp = apply_rotary(c.qp, pos, /*inverse=*/true);
  c.k = raw.k;
  c.bias = pos.score.tile(query, 1, 0, len).transpose(1, 2).to(raw.q.scalar_type());
  // M's diagonal, the original logits: O(L) products, not the [L, L] matrix.
  const auto diag = ((c.qp * c.k).sum(-1) * c.scale + c.bias.squeeze(-1)).to(torch::kFloat64);
  c.shift = std::get<0>(diag.max(-1, /*keepdim=*/true));
  c.ed = torch::exp(diag - c.shift);
  c.z = c.ed.sum(-1, /*keepdim=*/true);
  return c;
}

// exp(M[p, m] − shift) for positions p0.. (np of them) and key contents m0.. (nm).
torch::Tensor swap_exp(const SwapContext& c, std::int64_t p0, std::int64_t np, std::int64_t m0,
                       std::int64_t nm) {
  const auto m =
      torch::matmul(c.qp.narrow(2, p0, np), c.k.narrow(2, m0, nm).transpose(-1, -2)) * c.scale +
      c.bias.narrow(1, p0, np);
  return torch::exp(m.to(torch::kFloat64) - c.shift.unsqueeze(-1));
}

// a'_i and a'_j for i in i0.. (ni) and j in j0.. (nj): [B, H, ni, nj] each.
std::pair<torch::Tensor, torch::Tensor> swap_tile(const SwapContext& c, std::int64_t i0,
                                                  std::int64_t ni, std::int64_t j0,
                                                  std::int64_t nj) {
  const auto e_ij = swap_exp(c, i0, ni, j0, nj);                    // content j placed at i
  const auto e_ji = swap_exp(c, j0, nj, i0, ni).transpose(-1, -2);  // content i placed at j
  const auto ei = c.ed.narrow(2, i0, ni).unsqueeze(-1), ej = c.ed.narrow(2, j0, nj).unsqueeze(-2);
  // The denominator without keys i and j (clamped: rounding must not make it negative).
  const auto rest = (c.z.unsqueeze(-1) - ei - ej).clamp_min(0.0);
  const auto z_swapped = rest + e_ij + e_ji;
  return {e_ij / z_swapped, e_ji / z_swapped};
}

}  // namespace

SwapAttention swap_attention(Attention& attn, const torch::Tensor& x, const PositionContext& pos) {
  torch::NoGradGuard no_grad;
  const SwapContext c = swap_context(attn, x, pos);
  const std::int64_t n = x.size(1) - 1;
  SwapAttention s;
  s.a = c.ed / c.z;
  std::tie(s.swapped_i, s.swapped_j) = swap_tile(c, 0, n, 0, n);
  return s;
}

SampleScores score_attention_samples(Attention& attn, const torch::Tensor& x,
                                     const PositionContext& pos, double tau, std::int64_t tile) {
  torch::NoGradGuard no_grad;
  const std::int64_t b = x.size(0), n = x.size(1) - 1, heads = attn->heads;
  if (n < 2)
    throw std::invalid_argument("head scores need at least 3 positions (2 before the query)");
  if (tile <= 0) {
    const double per_cell = 12.0 * 8.0 * static_cast<double>(b * heads);
    tile = std::max<std::int64_t>(
        16, static_cast<std::int64_t>(std::sqrt(kHeadScoreTileBytes / per_cell)));
  }
  tile = std::min(tile, n);
  const SwapContext c = swap_context(attn, x, pos);
  const auto a = c.ed / c.z;
  // The pair weights softmax(gap / τ) over pairs i < j, accumulated tile by tile with a running
  // maximum (an online softmax), per sample and head.
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  auto top = torch::full({b, heads}, -std::numeric_limits<double>::infinity(), opts);
  auto wsum = torch::zeros({b, heads}, opts);
  auto pos_sum = torch::zeros({b, heads}, opts), sym_sum = torch::zeros({b, heads}, opts),
       gap_sum = torch::zeros({b, heads}, opts);
  const auto index = torch::arange(n, torch::TensorOptions().dtype(torch::kLong));
  for (std::int64_t i0 = 0; i0 < n; i0 += tile) {
    const std::int64_t ni = std::min(tile, n - i0);
    for (std::int64_t j0 = i0; j0 < n; j0 += tile) {
      const std::int64_t nj = std::min(tile, n - j0);
      if (j0 == i0 && ni < 2) continue;  // no pair i < j in this tile
      const auto [pi, pj] = swap_tile(c, i0, ni, j0, nj);
      const auto ai = a.narrow(2, i0, ni).unsqueeze(-1), aj = a.narrow(2, j0, nj).unsqueeze(-2);
      const auto norms =
          (torch::sqrt(ai * ai + aj * aj) * torch::sqrt(pi * pi + pj * pj)).clamp_min(1e-300);
      const auto positional = (pi * ai + pj * aj) / norms;
      const auto symbolic = (pi * aj + pj * ai) / norms;
      const auto gap = (ai - aj).abs();
      const auto upper =
          index.narrow(0, i0, ni).unsqueeze(1) < index.narrow(0, j0, nj).unsqueeze(0);
      const auto logits =
          (gap / tau).masked_fill(upper.logical_not(), -std::numeric_limits<double>::infinity());
      const auto new_top = torch::maximum(top, logits.amax({-2, -1}));
      const auto rescale = torch::exp(top - new_top);
      const auto w = torch::exp(logits - new_top.unsqueeze(-1).unsqueeze(-1));
      wsum = wsum * rescale + w.sum({-2, -1});
      pos_sum = pos_sum * rescale + (w * positional).sum({-2, -1});
      sym_sum = sym_sum * rescale + (w * symbolic).sum({-2, -1});
      gap_sum = gap_sum * rescale + (w * gap).sum({-2, -1});
      top = new_top;
    }
  }
  return {pos_sum / wsum, sym_sum / wsum, gap_sum / wsum, a.select(2, a.size(2) - 1)};
}

std::vector<HeadScore> score_attention_heads(Attention& attn, const torch::Tensor& x,
                                             const PositionContext& pos, double tau,
                                             std::int64_t tile) {
  const SampleScores s = score_attention_samples(attn, x, pos, tau, tile);
  const auto pos_h = s.positional.mean(0), sym_h = s.symbolic.mean(0), gap_h = s.gap.mean(0),
             self_h = s.self.mean(0);
  const std::int64_t heads = pos_h.size(0);
  std::vector<HeadScore> out;
  for (std::int64_t h = 0; h < heads; ++h) {
    HeadScore hs;
    hs.layer = -1;
    hs.head = static_cast<int>(h);
    hs.positional = pos_h[h].item<double>();
    hs.symbolic = sym_h[h].item<double>();
    hs.gap = gap_h[h].item<double>();
    hs.self = self_h[h].item<double>();
    hs.label = head_label(hs.positional, hs.symbolic, hs.gap, hs.self);
    out.push_back(hs);
  }
  return out;
}

std::int64_t head_score_batch(const ModelConfig& cfg, std::int64_t length) {
  const double cells =
      static_cast<double>(cfg.heads) * static_cast<double>(length) * static_cast<double>(length);
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(1e7 / cells), 1, 64);
}

double head_scoring_bytes(const ModelConfig& cfg, std::int64_t samples, std::int64_t length,
                          AttentionPath attention) {
  const std::int64_t batch = std::min(samples, head_score_batch(cfg, length));
  const double n = static_cast<double>(samples);
  const double ids = 8.0 * n * static_cast<double>(length);
  const double scores =
      2.0 * 8.0 * n * static_cast<double>(cfg.layers) * static_cast<double>(cfg.heads);
  return weight_bytes(cfg, /*token_embeddings=*/true) +
         forward_bytes(cfg, batch, length, /*cached=*/true, {attention, /*checkpoint=*/true}) +
         kHeadScoreTileBytes + ids + scores;
}

std::vector<HeadScore> score_heads(Transformer& model, const torch::Tensor& ids, double tau,
                                   std::int64_t batch) {
  const auto& cfg = model->config();
  // The scores read each head's softmax row over the keys; a null sink's e^b sits in the
  // normalizer with no key, so the row's shares (the self share, the gaps) would leave it out.
  if (cfg.null_sink)
    throw std::invalid_argument(
        "head scores are defined for plain softmax attention; this model has a null sink "
        "(train --null-sink), whose share of each row they would leave out");
  // The swap recomputes each head's logits from unscaled queries.
  if (cfg.logn_scale)
    throw std::invalid_argument(
        "head scores are defined for plain softmax attention; this model has log-n attention "
        "scaling (--logn-scale), which their recomputed logits would leave out");
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  const std::int64_t total = ids.size(0);
  if (batch <= 0) batch = head_score_batch(cfg, ids.size(1));
  // Every sample's scores per (layer, head), then the mean and its interval.
  const auto cells = static_cast<std::size_t>(cfg.layers * cfg.heads);
  std::vector<std::vector<double>> positional(cells), symbolic(cells);
  std::vector<double> gap(cells, 0.0), self(cells, 0.0);
  for (std::int64_t begin = 0; begin < total; begin += batch) {
    const auto chunk = ids.narrow(0, begin, std::min(batch, total - begin));
    ForwardCache cache;
    cache.checkpoint = true;  // only each block's input is read
    model->forward_embeddings(model->embed(chunk), &cache);
    for (std::int64_t l = 0; l < cfg.layers; ++l) {
      Block& block = model->layers[static_cast<std::size_t>(l)];
      const auto x = block->ln1(cache.blocks[static_cast<std::size_t>(l)].resid_pre);
      const SampleScores s = score_attention_samples(block->attn, x, cache.pos, tau);
      // [B, H] and [H] double tensors, read through accessors rather than one item() each.
      const auto gap_sum = s.gap.sum(0), self_sum = s.self.sum(0);
      const auto p = s.positional.accessor<double, 2>(), y = s.symbolic.accessor<double, 2>();
      const auto g = gap_sum.accessor<double, 1>(), a = self_sum.accessor<double, 1>();
      for (std::int64_t h = 0; h < cfg.heads; ++h) {
        const auto cell = static_cast<std::size_t>(l * cfg.heads + h);
        for (std::int64_t b = 0; b < p.size(0); ++b) {
          positional[cell].push_back(p[b][h]);
          symbolic[cell].push_back(y[b][h]);
        }
        gap[cell] += g[h];
        self[cell] += a[h];
      }
    }
  }
  model->train(was_training);
  std::vector<HeadScore> out(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    HeadScore& hs = out[i];
    hs.layer = static_cast<int>(i / static_cast<std::size_t>(cfg.heads));
    hs.head = static_cast<int>(i % static_cast<std::size_t>(cfg.heads));
    const SeedInterval p = seed_interval(positional[i]), y = seed_interval(symbolic[i]);
    hs.positional = p.mean, hs.positional_low = p.low, hs.positional_high = p.high;
    hs.symbolic = y.mean, hs.symbolic_low = y.low, hs.symbolic_high = y.high;
    hs.gap = gap[i] / static_cast<double>(total);
    hs.self = self[i] / static_cast<double>(total);
    hs.label = head_label(hs.positional, hs.symbolic, hs.gap, hs.self);
  }
  return out;
}

void scale_query_key(Transformer& model, double factor) {
  if (!(factor > 0) || !std::isfinite(factor))
    throw std::invalid_argument("--qk-scale must be a positive number");
  torch::NoGradGuard no_grad;
  for (Block& b : model->layers) {
    Attention& a = b->attn;
    const std::int64_t rows = (a->heads + a->kv_heads) * a->head_dim;  // q heads, then k heads
    a->qkv->weight.narrow(0, 0, rows).mul_(factor);
    if (a->qkv->bias.defined()) a->qkv->bias.narrow(0, 0, rows).mul_(factor);
  }
}

}  // namespace posbias
