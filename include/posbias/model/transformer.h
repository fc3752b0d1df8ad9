// A posbias transformer: embeddings, blocks, final norm and LM head for the gpt2 / qwen2 /
// gptj families, with TransformerLens-style activation names and a batched linearized
// backward from the final hidden state to the input embeddings.
//
// Shapes: ids [B, L] (int64); x, hidden [B, L, D]; logits [B, L, V]; cotangents [C, B, L, D].
// Parameters are named internally (wte, wpe, blocks.{l}.ln1, .attn.qkv, .attn.out, .ln2,
// .mlp.fc, .mlp.proj, ln_f, lm_head); hf_weights.h maps Hugging Face names onto them.
#pragma once

#include <torch/torch.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/model/layers.h"

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
  std::vector<BlockCache> blocks;
  NormCache final_norm;
  torch::Tensor hidden;  // final normed hidden [B, L, D]
};

// Named activations, as interpretability users type them:
//   hook_embed, hook_pos_embed, blocks.{l}.hook_resid_pre, blocks.{l}.attn.hook_q / hook_k /
//   hook_v / hook_pattern / hook_z, blocks.{l}.hook_attn_out, blocks.{l}.hook_resid_mid,
//   blocks.{l}.mlp.hook_pre, blocks.{l}.hook_mlp_out, blocks.{l}.hook_resid_post,
//   ln_final.hook_normalized.
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

class TransformerImpl : public torch::nn::Module {
 public:
  // token_embeddings = false skips the [V, D] table (and the LM head): enough when input
  // embeddings are fed directly, as `birth` does (Qwen2's table alone has 136M parameters).
  explicit TransformerImpl(const ModelConfig& cfg, bool token_embeddings = true);

  // Hugging Face initialization, deterministic for a seed: normal(0, init_std) weights and
  // embeddings, zero biases, unit norm weights, GPT-2's residual projections / sqrt(2·layers).
  void init_weights(std::uint64_t seed);

  torch::Tensor embed(const torch::Tensor& ids);  // token embeddings [B, L, D]
  // Final normed hidden from input embeddings (positions added inside for learned PE).
  // last_only: the final normed hidden of the last position alone, [B, D] (no cache).
  torch::Tensor forward_embeddings(const torch::Tensor& x, ForwardCache* cache = nullptr,
                                   bool last_only = false);
  torch::Tensor logits(const torch::Tensor& hidden);
  torch::Tensor forward(const torch::Tensor& ids) { return logits(forward_embeddings(embed(ids))); }
  // Logits at the last position only, [B, V]: what answer-only training and evaluation score.
  torch::Tensor last_logits(const torch::Tensor& ids) {
    return logits(forward_embeddings(embed(ids), nullptr, /*last_only=*/true));
  }

  // Cotangents of the final hidden [C, B, L, D] → cotangents of the input embeddings.
  torch::Tensor backward_to_input(const ForwardCache& cache, const torch::Tensor& dhidden) const;
  // Cotangents of the final hidden at one position q, [C, B, D] → input cotangents
  // [C, B, L, D]. Equal to backward_to_input with dhidden zero off q, but the top block only
  // differentiates position q's MLP and attention row.
  torch::Tensor backward_from_query(const ForwardCache& cache, const torch::Tensor& dquery,
                                    std::int64_t q) const;
  // The same for many cotangents (B = 1), block by block: each block's MLP half is applied
  // as one D×D map per position to all C cotangents at once (Block::mlp_maps; threads split
  // the positions), and its attention half runs in chunks of `chunk` cotangents (threads
  // split the chunks). Cheaper when C is a sizeable fraction of D (exact Jacobians).
  // dquery [C, 1, D] → input cotangents position-major, [L, C, D].
  torch::Tensor backward_from_query_by_block(const ForwardCache& cache, const torch::Tensor& dquery,
                                             std::int64_t q, std::int64_t chunk) const;

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

 private:
  ModelConfig cfg_;
  std::uint64_t dropout_seed_ = 0, dropout_calls_ = 0;
};
TORCH_MODULE(Transformer);

}  // namespace posbias
