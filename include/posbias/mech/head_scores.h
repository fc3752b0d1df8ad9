// Positional and symbolic head scores (docs/mech.md), per layer and head.
//
// For the query at the last position Q, with attention row a over positions 0..Q: swap the
// layer's input hidden states at earlier positions i < j < Q, keep the position ids, recompute
// the layer, and read the new row a'. Then
//   positional = cos((a'_i, a'_j), (a_i, a_j))     — attention stayed with the positions,
//   symbolic   = cos((a'_i, a'_j), (a_j, a_i))     — attention followed the content,
// weighted over pairs by softmax(|a_i − a_j| / τ) and averaged over samples.
//
// Only the swapped layer's score row changes, and only at keys i and j, so the recompute is
// exact and cheap: with the key content k_m (before rotary) and the query's rotated q, the
// logit of content m placed at position p is M[p, m] = (R_pᵀ q)·k_m · scale + bias[Q, p].
// M's diagonal is the original row; the swap changes logits i and j to M[i, j] and M[j, i]
// and the softmax denominator by the difference. This is the layer's own computation
// (the Attention module's projections and rotary), not a re-implementation of the model.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

#include "posbias/mech/head_score.h"
#include "posbias/model/transformer.h"

namespace posbias {

constexpr double kHeadScoreTau = 1e-4;

// The labels are a view of the continuous scores: pure at `threshold` means one score
// ≥ threshold and the other ≤ 0.5. reflexive: self ≥ threshold (the query passes on its own
// token; the swaps of earlier positions see no attention to move); positional: pure positional;
// symbolic: the reverse; uniform: both ≥ threshold or gap < 0.01 (a swap cannot tell position
// from content); mixed otherwise.
inline constexpr double kPureThreshold = 0.9;
HeadLabel head_label(double positional, double symbolic, double gap, double self = 0,
                     double threshold = kPureThreshold);

// The query's attention to keys i and j after swapping the inputs at i and j, for every
// pair: swapped_i[b, h, i, j] = a'_i and swapped_j[b, h, i, j] = a'_j (meaningful for
// i < j < Q), next to the original row a [b, h, 0..Q]. Double precision.
struct SwapAttention {
  torch::Tensor a;          // [B, H, L]
  torch::Tensor swapped_i;  // [B, H, L-1, L-1]
  torch::Tensor swapped_j;  // [B, H, L-1, L-1]
};
// x is the layer's normed attention input [B, L, D]; the query is position L-1.
SwapAttention swap_attention(Attention& attn, const torch::Tensor& x, const PositionContext& pos);

// Scores of every head of one attention layer per sample: [B, H] each.
struct SampleScores {
  torch::Tensor positional, symbolic, gap, self;
};
SampleScores score_attention_samples(Attention& attn, const torch::Tensor& x,
                                     const PositionContext& pos, double tau = kHeadScoreTau,
                                     std::int64_t tile = 0);
// The same averaged over the batch; layer = -1 in the results (the caller knows it). The pairs are
// visited in [B, H, tile, tile] tiles with the pair weights' softmax accumulated online, so memory
// is O(L·tile), not O(L²); tile = 0 picks one that keeps a tile's working set near 256 MB (one tile
// at the hop models' lengths).
std::vector<HeadScore> score_attention_heads(Attention& attn, const torch::Tensor& x,
                                             const PositionContext& pos, double tau = kHeadScoreTau,
                                             std::int64_t tile = 0);

// Every layer and head of a model on token ids [B, L] (eval mode, no gradients; the model's
// training mode is restored), through the model's attention path (dense or blockwise) with only
// each block's input kept, with intervals over the samples. Samples are scored `batch` at a time; 0
// picks a batch that keeps [batch, H, L, L] near 10M entries (64 at the hop models' L = 17, 1 from
// GPT-2 at L = 1024).
std::int64_t head_score_batch(const ModelConfig& cfg, std::int64_t length);
// A pair tile's working set in score_attention_heads (the memory plan adds it to the forward's).
inline constexpr double kHeadScoreTileBytes = 256e6;
// A model with a null sink is refused (std::invalid_argument): the scores are defined on plain
// softmax rows over the keys.
std::vector<HeadScore> score_heads(Transformer& model, const torch::Tensor& ids,
                                   double tau = kHeadScoreTau, std::int64_t batch = 0);

// The scores' null (`heads --qk-scale`): every layer's query and key projections, weights and
// biases, multiplied by `factor`, so the logits grow by factor²: attention far from uniform
// but as content-random as the weights. Throws std::invalid_argument unless factor > 0.
void scale_query_key(Transformer& model, double factor);

// The plan of score_heads on `samples` samples of `length` ids: the weights, a checkpointed
// forward of one batch and a pair tile, the [samples, length] int64 ids (held whole: every
// checkpoint reads the same ones) and every sample's two float64 scores per head until their
// means are taken. Grows with `samples`; what `heads` requires before it makes the samples.
double head_scoring_bytes(const ModelConfig& cfg, std::int64_t samples, std::int64_t length,
                          AttentionPath attention);

}  // namespace posbias
