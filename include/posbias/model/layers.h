// The layers of posbias transformers, each forward next to its linearized backward.
//
// Shape legend: B batch, L positions, D d_model, H query heads, K kv heads, E head dim,
// M MLP width, C cotangents. A backward takes a cotangent dy with one extra leading
// dimension C ([C, B, L, D]) and returns dx of the same shape, using the activations its
// forward cached. It propagates C cotangents in one pass (shared weights, batched GEMMs),
// which is how `birth` gets exact Jacobian norms without C separate autograd passes.
// Forwards are ordinary differentiable torch code (training uses autograd).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <memory>

#include "posbias/arch/config.h"
#include "posbias/core/rng.h"
#include "posbias/model/blockwise_attention.h"

namespace posbias {

// ---- Norm: LayerNorm (gpt2, gptj) or RMSNorm (qwen2, llama) over the last dimension ----
struct NormCache {
  torch::Tensor rstd;  // [B, L, 1]
  torch::Tensor xhat;  // [B, L, D] normalized input (before the weight)
  NormCache rows(std::int64_t begin, std::int64_t n) const;  // positions [begin, begin + n)
  NormCache row(std::int64_t i) const { return rows(i, 1); }
};

class NormImpl : public torch::nn::Module {
 public:
  NormImpl(std::int64_t dim, bool rms, double eps);
  torch::Tensor forward(const torch::Tensor& x, NormCache* cache = nullptr);
  torch::Tensor backward(const NormCache& cache, const torch::Tensor& dy) const;
  // The backward applied to each row of per-position maps [B, L, R, D] (the norm composed
  // after a map at every position of the cache): the rows of position i are cotangents at i.
  torch::Tensor backward_maps(const NormCache& cache, const torch::Tensor& maps) const;

  torch::Tensor weight, bias;  // bias undefined for RMSNorm
  bool rms;
  double eps;
};
TORCH_MODULE(Norm);

// ---- Dropout from a fast seeded stream ----
// torch's bernoulli_ draws one mt19937 number per element, which took 10-15% of a hop-model
// training step. Masks here come from SplitMix64, four 16-bit draws per 64-bit word (so p is
// rounded to a multiple of 1/65536), and are deterministic for the stream's seed.
struct DropoutSource {
  Rng rng;
  double p = 0;
  // A forward over rows [row_begin, row_begin + n) of a batch of rows_total (train's
  // batch-parallel step, model/transformer.h BatchShard): each mask is those rows of the mask the
  // whole batch's forward draws, and the stream moves past the whole mask. 0: the whole batch.
  std::int64_t row_begin = 0, rows_total = 0;
};

// ---- Positions (and dropout) shared by all layers of one forward ----
struct PositionContext {
  std::int64_t length = 0;
  torch::Tensor cos, sin;    // [L, R] rotary tables in the family's layout (RoPE only)
  std::int64_t rotary = 0;   // R rotary dims per head
  bool interleaved = false;  // GPT-J pairs (2i, 2i+1); otherwise halves (rotate_half)
  ScoreBias score;           // the score bias as a rule: causal, sliding window, ALiBi
  // Dense path: the rule as a tensor, [H or 1, L, L] (causal -inf mask, + ALiBi). Undefined
  // on the blockwise path, which computes it per tile.
  torch::Tensor bias;
  bool blockwise = false;
  // Log-n attention scaling (ModelConfig::logn_scale): query row i's factor s·log(n_i), [L, 1]
  // in the input's dtype, folded into the rotated queries (so every attention path and every
  // backward sees it; dQ is multiplied back). Undefined without the option.
  torch::Tensor logn;
  std::shared_ptr<DropoutSource> dropout;  // set only for a training-mode forward with p > 0
};

// x with a fresh dropout mask (scaled by 1/(1-p)); x itself when ctx.dropout is unset.
torch::Tensor apply_dropout(const torch::Tensor& x, const PositionContext& ctx);

// position_ids [B, L] int64 (train --random-positions, --pose; train/position_ids.h): the rotary
// angles at those ids, cos and sin [B, 1, L, R], one table per sequence broadcast over the
// heads. Undefined (the default): ids 0..L−1, tables [L, R].
PositionContext make_position_context(const ModelConfig& cfg, std::int64_t length,
                                      torch::Dtype dtype,
                                      AttentionPath path = AttentionPath::kDense,
                                      const torch::Tensor& position_ids = {});
// y = x·cos + rot(x)·sin on the first R dims of the last axis; inverse = the transpose.
torch::Tensor apply_rotary(const torch::Tensor& x, const PositionContext& ctx,
                           bool inverse = false);

// ---- Causal self-attention with fused qkv, GQA, RoPE / ALiBi ----
struct AttentionCache {
  torch::Tensor q, k, v;  // [B, H, L, E] after rotary; k, v expanded to H heads
  torch::Tensor pattern;  // [B, H, L, L] softmax weights (dense path)
  torch::Tensor lse;      // [B, H, L] log-sum-exp of each query's scores (blockwise path)
  torch::Tensor z;        // [B, L, H·E] before the output projection
  // [B, H, L] float64: each query row's softmax entropy, accumulated by a blockwise forward
  // without autograd (float32); undefined otherwise (read from the pattern or recomputed).
  torch::Tensor entropy;
  // Query i's softmax row [B, H, L], from the pattern or recomputed from lse.
  torch::Tensor pattern_row(const PositionContext& pos, std::int64_t row) const;
};

// Per-head projections of a layer input. From project(): [B, H, L, E], keys and values
// expanded to H heads. From project_heads(): TransformerLens's layout, q [B, L, H, E] and
// k, v [B, L, K, E], before rotary and before the kv heads are expanded.
struct AttentionProjections {
  torch::Tensor q, k, v;
};

class AttentionImpl : public torch::nn::Module {
 public:
  explicit AttentionImpl(const ModelConfig& cfg);
  // q, k, v of x (the normed layer input); rotate = false leaves q and k unrotated, which is
  // what moving a key's content to another position needs (`posbias heads`).
  AttentionProjections project(const torch::Tensor& x, const PositionContext& pos,
                               bool rotate = true);
  // The same projections as they leave the qkv GEMM: q [B, L, H, E], k and v [B, L, K, E]
  // (views of one [B, L, (H + 2K)·E] output), unrotated and unexpanded; project() is these,
  // transposed to heads-first, rotated and expanded. What run_with_cache reports as
  // attn.hook_q / hook_k / hook_v.
  AttentionProjections project_heads(const torch::Tensor& x);
  // The attention logits of the query at position `query` to every position: scaled scores
  // plus the position bias, before softmax; [B, H, L] (-inf after the query). Costs one
  // projection and one row of scores, so it serves long inputs (discrepancy at n = 4096).
  torch::Tensor query_scores(const torch::Tensor& x, const PositionContext& pos,
                             std::int64_t query);
  torch::Tensor forward(const torch::Tensor& x, const PositionContext& pos,
                        AttentionCache* cache = nullptr);
  torch::Tensor backward(const AttentionCache& cache, const torch::Tensor& dy,
                         const PositionContext& pos) const;
  // The blockwise path's backward: the same map, tiles recomputed from the cached lse.
  torch::Tensor backward_blockwise(const AttentionCache& cache, const torch::Tensor& dy,
                                   const PositionContext& pos) const;
  // Query rows per block of backward's causal products: dP, dQ and dV skip the keys after
  // each block's last row.
  static constexpr std::int64_t kCausalBlock = 64;
  // The same for a cotangent that lives at one position: dy_row [C, B, 1, D] at position `row`
  // (zero elsewhere) → dx [C, B, L, D]. Only that query's attention row is differentiated, so
  // the cost is linear in L (the top block of a Jacobian to one output position).
  torch::Tensor backward_from_row(const AttentionCache& cache, const torch::Tensor& dy_row,
                                  std::int64_t row, const PositionContext& pos) const;

  torch::nn::Linear qkv{nullptr};  // D → (H + 2K)·E, rows [q heads | k heads | v heads]
  torch::nn::Linear out{nullptr};  // H·E → D
  // [H] learned sink logits b_h (ModelConfig::null_sink), undefined without a null sink: query
  // i's softmax normalizer gains e^{b_h}, the sink carries no value, so the pattern's rows sum to
  // 1 − e^{b_h}/(e^{b_h} + Σ_j e^{s_ij}). The backward needs nothing else: dS = P ⊙ (dP − Σ dP ⊙ P)
  // holds with the sink's column, whose dP is 0. Dense attention only.
  torch::Tensor null_sink;
  std::int64_t heads, kv_heads, head_dim;
  // An intervention on the heads' outputs before the output projection (mean-ablation,
  // activation patching: mech/ablation.h): z [B, L, H·E] → the z the layer goes on with, of
  // the same shape. Unset in training and in every measurement but those interventions.
  std::function<torch::Tensor(const torch::Tensor& z)> z_hook;
  // An intervention on the attention logits before the softmax (eval --calibrate:
  // model/attention_calibration.h): scores [B, H, L, L], the causal mask and any position bias
  // added (-inf above the diagonal) → the scores the softmax reads. Dense attention only (the
  // blockwise path refuses it); unset in training and in every measurement but that one.
  std::function<torch::Tensor(const torch::Tensor& scores)> score_hook;
};
TORCH_MODULE(Attention);

// ---- MLP: GELU (tanh) for gpt2/gptj, SwiGLU for qwen2/llama ----
struct MlpCache {
  torch::Tensor pre;       // [B, L, M] fc output (GELU) or [B, L, 2M] gate|up (SwiGLU)
  torch::Tensor act_grad;  // GELU'(pre) [B, L, M], or (up·silu'(gate) | silu(gate)) [B, L, 2M]
  MlpCache rows(std::int64_t begin, std::int64_t n) const;  // positions [begin, begin + n)
};

class MlpImpl : public torch::nn::Module {
 public:
  explicit MlpImpl(const ModelConfig& cfg);
  torch::Tensor forward(const torch::Tensor& x, MlpCache* cache = nullptr);
  torch::Tensor backward(const MlpCache& cache, const torch::Tensor& dy) const;
  // The backward is linear at each position i: dy_i ↦ dy_i·A_i, A_i = W_proj·diag(f_i)·W_fc
  // ([D, M]·[M, M]·[M, D], f the cached activation derivative; SwiGLU stacks its gate and up
  // factors, [D, 2M]·[2M, D]). Returns A at every position of the cache: [B, L, D, D].
  torch::Tensor position_maps(const MlpCache& cache) const;

  torch::nn::Linear fc{nullptr};    // D → M (GELU) or D → 2M gate|up (SwiGLU)
  torch::nn::Linear proj{nullptr};  // M → D
  bool gated;
};
TORCH_MODULE(Mlp);

}  // namespace posbias
