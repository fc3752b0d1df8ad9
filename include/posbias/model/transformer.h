// A posbias transformer: embeddings, blocks, final norm and LM head for the gpt2 / qwen2 / llama /
// gptj families, with TransformerLens-style activation names and a batched linearized
// backward from the final hidden state to the input embeddings.
//
// Shapes: ids [B, L] (int64); x, hidden [B, L, D]; logits [B, L, V]; cotangents [C, B, L, D].
// Parameters are named internally (wte, wpe, blocks.{l}.ln1, .attn.qkv, .attn.out, .ln2,
// .mlp.fc, .mlp.proj, ln_f, lm_head); hf_weights.h maps Hugging Face names onto them.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/model/layers.h"
#include "posbias/model/memory_plan.h"

namespace posbias {

struct BlockCache {
  torch::Tensor resid_pre, attn_out, resid_mid, mlp_out, resid_post;  // [B, L, D]
  NormCache ln1, ln2;
  AttentionCache attn;
  MlpCache mlp;
};

class BlockImpl : public torch::nn::Module {
 public:
  explicit BlockImpl(const ModelConfig& cfg);
  torch::Tensor forward(const torch::Tensor& x, const PositionContext& pos,
                        BlockCache* cache = nullptr);
  torch::Tensor backward(const BlockCache& cache, const torch::Tensor& dy,
                         const PositionContext& pos) const;
  // mlp_half over every position, a slice of positions at a time so that the MLP's
  // [C, B, n, M] intermediates stay near `max_bytes` (the whole width at once when they fit).
  torch::Tensor mlp_half_sliced(const BlockCache& cache, const torch::Tensor& dy,
                                double max_bytes = kMlpSliceBytes) const;
  // The backward in two halves, backward(c, dy) = finish_backward(c, dy, mlp_half(c, dy)):
  //   sequential blocks: dh = dy + ln2ᵀ(mlpᵀ(dy)), then dx = dh + ln1ᵀ(attnᵀ(dh));
  //   parallel blocks:   m = mlpᵀ(dy) (ln1 is shared), then dx = ln1ᵀ(attnᵀ(dy) + m) + dy.
  // The MLP half is linear at each position: mlp_maps gives its D×D matrices T_i for positions
  // [begin, begin + n), [B, n, D, D] with mlp_half_i = dy_i·T_i, so that many cotangents can
  // share one product per position instead of two GEMMs through the MLP width each.
  // mlp_half's dy [C, B, n, D] covers positions [begin, begin + n): all of them by default.
  torch::Tensor mlp_half(const BlockCache& cache, const torch::Tensor& dy,
                         std::int64_t begin = 0) const;
  torch::Tensor mlp_maps(const BlockCache& cache, std::int64_t begin, std::int64_t n) const;
  torch::Tensor finish_backward(const BlockCache& cache, const torch::Tensor& dy,
                                const torch::Tensor& mlp_half, const PositionContext& pos) const;
  // dy_row [C, B, 1, D] is the cotangent at position `row` only → dx [C, B, L, D].
  torch::Tensor backward_from_row(const BlockCache& cache, const torch::Tensor& dy_row,
                                  std::int64_t row, const PositionContext& pos) const;

  Norm ln1{nullptr}, ln2{nullptr};  // ln2 unused by parallel (GPT-J) blocks
  Attention attn{nullptr};
  Mlp mlp{nullptr};
  bool parallel;
};
TORCH_MODULE(Block);

// Everything one forward pass saved: what the linearized backward needs.
struct ForwardCache {
  PositionContext pos;
  std::vector<BlockCache> blocks;  // with `checkpoint`, only each block's resid_pre
  NormCache final_norm;
  torch::Tensor hidden;  // final normed hidden [B, L, D]
  // Activation checkpointing, set before the forward: keep each block's input only (the MLP's
  // [B, L, M] tensors of every layer are what pass memory at long L) and recompute a block's
  // cache, one block forward, whenever block(l) is asked for it.
  bool checkpoint = false;
  std::vector<Block> modules;  // the blocks that made a checkpointed cache

  std::size_t layers() const { return blocks.size(); }
  // Block l's full cache: stored, or recomputed from its input.
  BlockCache block(std::size_t l) const;
};

// Called by a backward once it is done with block `layer`'s cache (recomputed when
// checkpointing): whatever else a caller reads off each block rides on that block's one
// recompute instead of a pass of its own.
using BlockVisitor = std::function<void(std::size_t layer, const BlockCache& block)>;

// Named activations with TransformerLens's names and shapes (v3 HookedTransformer; shape
// legend of layers.h: K kv heads, M MLP width, i.e. TransformerLens's batch, pos, d_model,
// head_index, kv_head_index, d_head, d_mlp):
//   hook_embed                       [B, L, D]     the input embeddings x
//   hook_pos_embed                   [B, L, D]     learned positions only: wpe rows 0..L-1,
//                                                  repeated over the batch (a copy)
//   blocks.{l}.hook_resid_pre        [B, L, D]
//   blocks.{l}.ln1.hook_scale        [B, L, 1]     √(var + eps) (LayerNorm), √(mean x² + eps) (RMS)
//   blocks.{l}.ln1.hook_normalized   [B, L, D]     before the norm's weight and bias (v3)
//   blocks.{l}.attn.hook_q           [B, L, H, E]  before rotary
//   blocks.{l}.attn.hook_k           [B, L, K, E]  before rotary; K = H unless GQA (not expanded)
//   blocks.{l}.attn.hook_v           [B, L, K, E]  not expanded
//   blocks.{l}.attn.hook_rot_q       [B, L, H, E]  after rotary (RoPE models only)
//   blocks.{l}.attn.hook_rot_k       [B, L, K, E]  after rotary (RoPE models only)
//   blocks.{l}.attn.hook_attn_scores [B, H, L, L]  q·k/√E + ALiBi bias, -inf above the diagonal
//   blocks.{l}.attn.hook_pattern     [B, H, L, L]  softmax of the scores (query, key); before
//                                                  attention dropout
//   blocks.{l}.attn.hook_z           [B, L, H, E]  pattern·v per head (query head h reads kv
//                                                  head h / (H/K)), before the output projection
//   blocks.{l}.hook_attn_out         [B, L, D]
//   blocks.{l}.hook_resid_mid        [B, L, D]     sequential blocks only: resid_pre + attn_out.
//                                                  Parallel (GPT-J) blocks have none, as in
//                                                  TransformerLens: resid_post = resid_pre +
//                                                  attn_out + mlp_out
//   blocks.{l}.ln2.hook_scale        [B, L, 1]     of resid_mid; parallel blocks: ln1's tensors
//   blocks.{l}.ln2.hook_normalized   [B, L, D]     (TransformerLens ties GPT-J's ln2 to ln1)
//   blocks.{l}.mlp.hook_pre          [B, L, M]     fc output (GELU) or the gate projection (SwiGLU)
//   blocks.{l}.mlp.hook_pre_linear   [B, L, M]     SwiGLU's up projection (qwen2, llama)
//   blocks.{l}.mlp.hook_post         [B, L, M]     GELU(pre), or silu(pre)·pre_linear
//   blocks.{l}.hook_mlp_out          [B, L, D]
//   blocks.{l}.hook_resid_post       [B, L, D]
//   ln_final.hook_scale              [B, L, 1]
//   ln_final.hook_normalized         [B, L, D]     before ln_f's weight and bias (v3; v2 put
//                                                  LayerNorm's after them): forward_embeddings'
//                                                  output is hook_normalized·w (+ b)
// The residual-stream branches (hook_attn_out, hook_mlp_out, and hook_resid_pre of block 0)
// are after dropout, so the residual sums hold in training mode too; hook_z = pattern·v only
// without attention dropout (eval mode or dropout 0).
struct ActivationCache {
  std::map<std::string, torch::Tensor> tensors;
  const torch::Tensor& operator[](const std::string& name) const;  // throws if absent
  bool contains(const std::string& name) const { return tensors.count(name) != 0; }
  // Mean attention entropy over layers, heads and queries i >= 2, divided by ln(i).
  double attention_entropy_ratio() const;
};

// Mean attention entropy over layers, heads and queries i >= 2, divided by the uniform
// entropy ln(i): 1 means attention is uniform (the score pathway is ~0, as at init).
double attention_entropy_ratio(const std::vector<torch::Tensor>& patterns);
double attention_entropy_ratio(const ForwardCache& cache);
// One block's share of it: the sum of the ratios of its heads and queries, and their count.
struct EntropyRatioSum {
  double total = 0;
  std::int64_t count = 0;
  void add(const EntropyRatioSum& other) { total += other.total, count += other.count; }
  double ratio() const {  // the mean; NaN for no rows
    return count > 0 ? total / static_cast<double>(count) : std::nan("");
  }
};
EntropyRatioSum attention_entropy_ratio_sum(const BlockCache& block, const PositionContext& pos);

// Rows [row_begin, row_begin + n) of a training batch of rows_total, forwarded on their own:
// the rows' position ids (undefined: 0..L−1) and dropout masks that are those rows of the
// masks a whole-batch forward after set_dropout_seed(dropout_seed) draws, so that the shards'
// losses are the rows' terms of the whole batch's (up to summation order).
struct BatchShard {
  std::int64_t row_begin = 0, rows_total = 0;
  torch::Tensor position_ids;  // [n, L] int64, or undefined
  std::uint64_t dropout_seed = 0;
};

class TransformerImpl : public torch::nn::Module {
 public:
  // token_embeddings = false skips the [V, D] table (and the LM head): enough when input
  // embeddings are fed directly, as `birth` does (Qwen2's table alone has 136M parameters).
  // Initialized with init_weights(0). Torch's global generator is left as it was (libtorch's
  // layer constructors draw from it; its state is restored).
  explicit TransformerImpl(const ModelConfig& cfg, bool token_embeddings = true);

  // Hugging Face initialization, deterministic for a seed: normal(0, init_std) weights and
  // embeddings, zero biases, unit norm weights, GPT-2's residual projections / sqrt(2·layers),
  // the attention output projection's std times cfg.attn_init_scale.
  // Draws from a CPU generator of its own seeded with `seed` (the stream manual_seed(seed)
  // would give), never from torch's global generator, whose state it leaves untouched.
  void init_weights(std::uint64_t seed);

  torch::Tensor embed(const torch::Tensor& ids);  // token embeddings [B, L, D]
  // Final normed hidden from input embeddings (positions added inside for learned PE).
  // last_only: the final normed hidden of the last position alone, [B, D] (no cache).
  // block_inputs: receives each block's input as the autograd graph holds it (for gradients
  // with respect to the residual stream at a layer, e.g. per-position gradient norms).
  // shard: the forward of one shard of a batch, beside others on the same model (no state of
  // the model is read or changed: its own position ids and dropout stream instead of
  // set_position_ids' and set_dropout_seed's).
  torch::Tensor forward_embeddings(const torch::Tensor& x, ForwardCache* cache = nullptr,
                                   bool last_only = false,
                                   std::vector<torch::Tensor>* block_inputs = nullptr,
                                   const BatchShard* shard = nullptr);
  torch::Tensor logits(const torch::Tensor& hidden);
  torch::Tensor forward(const torch::Tensor& ids) { return logits(forward_embeddings(embed(ids))); }
  // Logits at the last position only, [B, V]: what answer-only training and evaluation score.
  torch::Tensor last_logits(const torch::Tensor& ids) {
    return logits(forward_embeddings(embed(ids), nullptr, /*last_only=*/true));
  }
  // The same for one shard's rows of a batch (ids [n, L]), safe to run on several threads at
  // once in training mode (train's batch-parallel step).
  torch::Tensor last_logits(const torch::Tensor& ids, const BatchShard& shard) {
    return logits(forward_embeddings(embed(ids), nullptr, /*last_only=*/true, nullptr, &shard));
  }

  // Cotangents of the final hidden [C, B, L, D] → cotangents of the input embeddings.
  torch::Tensor backward_to_input(const ForwardCache& cache, const torch::Tensor& dhidden) const;
  // Cotangents of the final hidden at one position q, [C, B, D] → input cotangents
  // [C, B, L, D]. Equal to backward_to_input with dhidden zero off q, but the top block only
  // differentiates position q's MLP and attention row.
  // on_block (optional) runs after each block, top block first.
  torch::Tensor backward_from_query(const ForwardCache& cache, const torch::Tensor& dquery,
                                    std::int64_t q, const BlockVisitor& on_block = {}) const;
  // The same for many cotangents (B = 1), block by block: each block's MLP half is applied
  // as one D×D map per position to all C cotangents at once (Block::mlp_maps; threads split
  // the positions), and its attention half runs in chunks of `chunk` cotangents (threads
  // split the chunks). Cheaper when C is a sizeable fraction of D (exact Jacobians).
  // dquery [C, 1, D] → input cotangents position-major, [L, C, D].
  torch::Tensor backward_from_query_by_block(const ForwardCache& cache, const torch::Tensor& dquery,
                                             std::int64_t q, std::int64_t chunk,
                                             const BlockVisitor& on_block = {}) const;

  // One forward from input embeddings x [B, L, D], keeping the activations named above that
  // names_filter accepts (all by default). hook_q / hook_k (pre-rotary) are recomputed from
  // each block's ln1 output here, and only when asked for, so that the forward used by
  // training and the Jacobians keeps nothing extra.
  ActivationCache run_with_cache(const torch::Tensor& x,
                                 const std::function<bool(const std::string&)>& names_filter = {});

  const ModelConfig& config() const { return cfg_; }

  torch::nn::Embedding wte{nullptr};
  torch::Tensor wpe;             // [P, D], learned positions only
  torch::nn::ModuleList blocks;  // registered as blocks.{l}
  std::vector<Block> layers;     // the same blocks, typed
  Norm ln_f{nullptr};
  torch::nn::Linear lm_head{nullptr};  // untied models only

  // Dropout (embeddings, attention pattern, residual branches) is active in training mode
  // when cfg.dropout > 0. Forward number n after set_dropout_seed(s) draws its masks from
  // the stream (s, n), so a training step is reproducible from its seed.
  void set_dropout_seed(std::uint64_t seed) { dropout_seed_ = seed, dropout_calls_ = 0; }

  // How every forward from now on computes attention (dense by default). Blockwise caches
  // no pattern: hook_pattern is absent and attention_entropy_ratio recomputes rows.
  void set_attention(AttentionPath path) { attention_ = path; }
  // Changes the rotations of a rotary model from the next forward on (eval --rope-scaling,
  // arch/rope_scaling.h); none restores the trained ones. std::invalid_argument, the model
  // unchanged, for a model without rotary positions or a bad factor.
  void set_rope_scaling(const std::optional<RopeScaling>& scaling);
  // Multiplies query i's attention logits by s·log(n_i) from the next forward on (eval
  // --logn-scale, arch/logn_scale.h); none: plain softmax. std::invalid_argument, the model
  // unchanged, for a bad s or a model the scaling does not apply to (ALiBi, a null sink).
  void set_logn_scale(const std::optional<double>& s);
  AttentionPath attention() const { return attention_; }
  // Position ids [B, L] int64 for every forward from now on (train --random-positions, --pose):
  // rotary angles at those ids, learned rows at those ids (each < max_positions). Undefined
  // (the default, and what clears it): ids 0..L−1, the plain code path. A forward whose input
  // is not [B, L] throws std::logic_error.
  void set_position_ids(const torch::Tensor& ids) { position_ids_ = ids; }

 private:
  ModelConfig cfg_;
  AttentionPath attention_ = AttentionPath::kDense;
  std::uint64_t dropout_seed_ = 0, dropout_calls_ = 0;
  torch::Tensor position_ids_;  // undefined: 0..L−1
};
TORCH_MODULE(Transformer);

}  // namespace posbias
