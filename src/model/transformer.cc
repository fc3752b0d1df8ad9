#include "posbias/model/transformer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "posbias/model/dnnl_linear.h"
#include "posbias/model/dropout.h"
#include "posbias/model/gelu.h"
#include "posbias/model/gemm.h"

namespace posbias {

// ---------------------------------------------------------------- block
BlockImpl::BlockImpl(const ModelConfig& cfg) : parallel(cfg.parallel_block()) {
  ln1 = register_module("ln1", Norm(cfg.d_model, cfg.rms_norm(), cfg.norm_eps));
  attn = register_module("attn", Attention(cfg));
  if (!parallel) ln2 = register_module("ln2", Norm(cfg.d_model, cfg.rms_norm(), cfg.norm_eps));
  mlp = register_module("mlp", Mlp(cfg));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, const PositionContext& pos,
                                 BlockCache* c) {
  if (parallel) {  // GPT-J: x + attn(ln1(x)) + mlp(ln1(x))
    const auto n = ln1(x, c ? &c->ln1 : nullptr);
    if (c == nullptr && pos.dropout && pos.dropout->p > 0 && x.scalar_type() == torch::kFloat32) {
      // Training: the residual sum with both dropped branches in one kernel (dropout.h), the
      // masks drawn in the same order as below.
      const auto a = attn(n, pos);
      const auto mask_a = dropout_mask(a.sizes(), pos);
      const auto m = mlp(n);
      return dropped_residual(x, a, m, mask_a, dropout_mask(m.sizes(), pos));
    }
    const auto a = apply_dropout(attn(n, pos, c ? &c->attn : nullptr), pos);
    const auto m = apply_dropout(mlp(n, c ? &c->mlp : nullptr), pos);
    const auto y = x + a + m;
    if (c)
      c->resid_pre = x.detach(), c->attn_out = a.detach(), c->mlp_out = m.detach(),
      c->resid_post = y.detach();
    return y;
  }
  const auto a =
      apply_dropout(attn(ln1(x, c ? &c->ln1 : nullptr), pos, c ? &c->attn : nullptr), pos);
  const auto h = x + a;
  const auto m = apply_dropout(mlp(ln2(h, c ? &c->ln2 : nullptr), c ? &c->mlp : nullptr), pos);
  const auto y = h + m;
  if (c) {
    c->resid_pre = x.detach(), c->attn_out = a.detach(), c->resid_mid = h.detach();
    c->mlp_out = m.detach(), c->resid_post = y.detach();
  }
  return y;
}

torch::Tensor BlockImpl::backward(const BlockCache& c, const torch::Tensor& dy,
                                  const PositionContext& pos) const {
  return finish_backward(c, dy, mlp_half_sliced(c, dy), pos);
}

torch::Tensor BlockImpl::mlp_half_sliced(const BlockCache& c, const torch::Tensor& dy,
                                         double max_bytes) const {
  const std::int64_t length = dy.size(2);
  const double per_position =
      static_cast<double>(dy.size(0) * dy.size(1) * c.mlp.pre.size(-1) * dy.element_size()) *
      2;  // dA and its product with the activation's derivative
  const auto slice = std::max<std::int64_t>(1, static_cast<std::int64_t>(max_bytes / per_position));
  if (slice >= length) return mlp_half(c, dy);
  auto out = torch::empty_like(dy);
  for (std::int64_t begin = 0; begin < length; begin += slice) {
    const std::int64_t n = std::min(slice, length - begin);
    out.narrow(2, begin, n).copy_(mlp_half(c, dy.narrow(2, begin, n), begin));
  }
  return out;
}

torch::Tensor BlockImpl::mlp_half(const BlockCache& c, const torch::Tensor& dy,
                                  std::int64_t begin) const {
  const std::int64_t n = dy.size(2);
  const auto m = mlp->backward(c.mlp.rows(begin, n), dy);
  if (parallel) return m;
  return ln2->backward(c.ln2.rows(begin, n), m).add_(dy);
}

torch::Tensor BlockImpl::mlp_maps(const BlockCache& c, std::int64_t begin, std::int64_t n) const {
  auto maps = mlp->position_maps(c.mlp.rows(begin, n));
  if (parallel) return maps;
  maps = ln2->backward_maps(c.ln2.rows(begin, n), maps);
  maps.diagonal(0, -2, -1).add_(1);  // the residual
  return maps;
}

torch::Tensor BlockImpl::finish_backward(const BlockCache& c, const torch::Tensor& dy,
                                         const torch::Tensor& mlp_half,
                                         const PositionContext& pos) const {
  if (parallel) {
    auto branches = attn->backward(c.attn, dy, pos);
    branches.add_(mlp_half);
    return ln1->backward(c.ln1, branches).add_(dy);
  }
  return ln1->backward(c.ln1, attn->backward(c.attn, mlp_half, pos)).add_(mlp_half);
}

torch::Tensor BlockImpl::backward_from_row(const BlockCache& c, const torch::Tensor& dy_row,
                                           std::int64_t row, const PositionContext& pos) const {
  const auto half_row = mlp_half(c, dy_row, row);
  if (parallel) {
    auto branches = attn->backward_from_row(c.attn, dy_row, row, pos);
    branches.narrow(2, row, 1).add_(half_row);
    auto dx = ln1->backward(c.ln1, branches);
    dx.narrow(2, row, 1).add_(dy_row);
    return dx;
  }
  auto dx = ln1->backward(c.ln1, attn->backward_from_row(c.attn, half_row, row, pos));
  dx.narrow(2, row, 1).add_(half_row);
  return dx;
}

BlockCache ForwardCache::block(std::size_t l) const {
  if (!checkpoint) return blocks.at(l);
  torch::NoGradGuard no_grad;
  BlockCache c;
  Block module = modules.at(l);  // a holder copy: its forward runs non-const
  module->forward(blocks.at(l).resid_pre, pos, &c);
  return c;
}

// ---------------------------------------------------------------- model
namespace {

// libtorch's Linear and Embedding constructors draw their default init from the global CPU
// generator. init_weights overwrites those values, so the constructor puts the generator's
// state back: building a model leaves the caller's random stream where it was.
class GlobalGeneratorRestorer {
 public:
  GlobalGeneratorRestorer() : gen_(at::detail::getDefaultCPUGenerator()) {
    const std::lock_guard<std::mutex> lock(gen_.mutex());
    state_ = gen_.get_state();
  }
  ~GlobalGeneratorRestorer() {
    const std::lock_guard<std::mutex> lock(gen_.mutex());
    gen_.set_state(state_);
  }
  GlobalGeneratorRestorer(const GlobalGeneratorRestorer&) = delete;
  GlobalGeneratorRestorer& operator=(const GlobalGeneratorRestorer&) = delete;

 private:
  at::Generator gen_;
  torch::Tensor state_;
};

}  // namespace

void TransformerImpl::set_rope_scaling(const std::optional<RopeScaling>& scaling) {
  ModelConfig scaled = cfg_;
  scaled.rope_scaling = scaling;
  scaled.validate();
  cfg_ = scaled;
}

void TransformerImpl::set_logn_scale(const std::optional<double>& s) {
  ModelConfig scaled = cfg_;
  scaled.logn_scale = s;
  scaled.validate();
  cfg_ = scaled;
}

TransformerImpl::TransformerImpl(const ModelConfig& cfg, bool token_embeddings) : cfg_(cfg) {
  cfg_.validate();
  const GlobalGeneratorRestorer restore_global_generator;
  if (token_embeddings) wte = register_module("wte", torch::nn::Embedding(cfg.vocab, cfg.d_model));
  if (cfg.learned_positions())
    wpe = register_parameter("wpe", torch::zeros({cfg.max_positions, cfg.d_model}));
  blocks = register_module("blocks", torch::nn::ModuleList());
  for (std::int64_t l = 0; l < cfg.layers; ++l) {
    layers.push_back(Block(cfg));
    blocks->push_back(layers.back());
  }
  ln_f = register_module("ln_f", Norm(cfg.d_model, cfg.rms_norm(), cfg.norm_eps));
  if (!cfg.tie_embeddings && token_embeddings) {
    lm_head = register_module(
        "lm_head",
        torch::nn::Linear(torch::nn::LinearOptions(cfg.d_model, cfg.vocab).bias(cfg.head_bias())));
  }
  init_weights(0);
}

void TransformerImpl::init_weights(std::uint64_t seed) {
  torch::NoGradGuard no_grad;
  // A generator of our own: a fresh CPU generator seeded with s gives the same mt19937 stream
  // torch::manual_seed(s) used to give the global one, so the weights are unchanged, and the
  // global generator (what the caller draws next) is left alone.
  at::Generator gen = at::detail::createCPUGenerator(seed);
  const double std = cfg_.init_std;
  const double residual_std =
      cfg_.scaled_residual_init() ? std / std::sqrt(2.0 * static_cast<double>(cfg_.layers)) : std;
  for (auto& p : named_parameters()) {
    const std::string& name = p.key();
    torch::Tensor& t = p.value();
    const bool is_norm =
        name.find("ln") != std::string::npos && name.find("lm_head") == std::string::npos;
    if (name.find("attn.null_sink") != std::string::npos) {
      t.fill_(*cfg_.null_sink);  // set, not drawn: the other weights stay those of the seed
    } else if (is_norm) {
      (name.size() >= 6 && name.substr(name.size() - 6) == "weight") ? t.fill_(1.0) : t.zero_();
    } else if (name.size() >= 4 && name.substr(name.size() - 4) == "bias") {
      t.zero_();
    } else if (name.find("attn.out.weight") != std::string::npos) {
      t.normal_(0.0, residual_std * cfg_.attn_init_scale, gen);
    } else if (name.find("mlp.proj.weight") != std::string::npos) {
      t.normal_(0.0, residual_std, gen);
    } else {
      t.normal_(0.0, std, gen);
    }
  }
}

torch::Tensor TransformerImpl::embed(const torch::Tensor& ids) {
  if (!wte) throw std::invalid_argument("this model was built without its token embedding table");
  if (ids.numel() > 0 &&
      (ids.min().item<std::int64_t>() < 0 || ids.max().item<std::int64_t>() >= cfg_.vocab)) {
    throw std::invalid_argument("token ids must be in 0.." + std::to_string(cfg_.vocab - 1));
  }
  return wte(ids);
}

torch::Tensor TransformerImpl::forward_embeddings(const torch::Tensor& x, ForwardCache* cache,
                                                  bool last_only,
                                                  std::vector<torch::Tensor>* block_inputs,
                                                  const BatchShard* shard) {
  const std::int64_t length = x.size(1);
  if (const auto limit = cfg_.position_limit(); limit && length > *limit) {
    throw std::invalid_argument("length " + std::to_string(length) +
                                " exceeds the learned position table (" +
                                std::to_string(cfg_.max_positions) + ")");
  }
  PositionContext local;
  PositionContext& pos = cache ? cache->pos : local;
  torch::Tensor h = x;
  const torch::Tensor& position_ids = shard ? shard->position_ids : position_ids_;
  if (position_ids.defined()) {  // train --random-positions, --pose
    if (position_ids.dim() != 2 || position_ids.size(0) != x.size(0) ||
        position_ids.size(1) != length)
      throw std::logic_error("the position ids do not match the input's batch and length");
    pos = make_position_context(cfg_, length, x.scalar_type(), attention_, position_ids);
    if (cfg_.learned_positions())
      h = h + wpe.index_select(0, position_ids.flatten()).view({x.size(0), length, cfg_.d_model});
  } else {
    pos = make_position_context(cfg_, length, x.scalar_type(), attention_);
    if (cfg_.learned_positions()) h = h + wpe.slice(0, 0, length);
  }
  if (is_training() && cfg_.dropout > 0) {
    pos.dropout = std::make_shared<DropoutSource>(
        shard ? DropoutSource{Rng::stream(shard->dropout_seed, 0), cfg_.dropout, shard->row_begin,
                              shard->rows_total}
              : DropoutSource{Rng::stream(dropout_seed_, dropout_calls_++), cfg_.dropout});
  }
  h = apply_dropout(h, pos);
  const bool checkpoint = cache != nullptr && cache->checkpoint;
  if (cache) {
    cache->blocks.assign(layers.size(), BlockCache{});
    cache->modules = checkpoint ? layers : std::vector<Block>{};
  }
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (block_inputs) block_inputs->push_back(h);
    if (checkpoint) cache->blocks[l].resid_pre = h.detach();
    h = layers[l]->forward(h, pos, cache && !checkpoint ? &cache->blocks[l] : nullptr);
  }
  if (last_only) return ln_f(h.select(1, length - 1));
  const auto y = ln_f(h, cache ? &cache->final_norm : nullptr);
  if (cache) cache->hidden = y.detach();
  return y;
}

torch::Tensor TransformerImpl::logits(const torch::Tensor& hidden) {
  if (!wte)
    throw std::invalid_argument(
        "this model was built without its token embedding table (no LM head)");
  return cfg_.tie_embeddings ? torch::matmul(hidden, wte->weight.t())
                             : dnnl_linear(hidden, lm_head);
}

torch::Tensor TransformerImpl::backward_to_input(const ForwardCache& cache,
                                                 const torch::Tensor& dhidden) const {
  torch::NoGradGuard no_grad;
  torch::Tensor g = ln_f->backward(cache.final_norm, dhidden);
  for (std::size_t l = layers.size(); l-- > 0;)
    g = layers[l]->backward(cache.block(l), g, cache.pos);
  return g;  // the learned position table is added, so its Jacobian is the identity
}

torch::Tensor TransformerImpl::backward_from_query(const ForwardCache& cache,
                                                   const torch::Tensor& dquery, std::int64_t q,
                                                   const BlockVisitor& on_block) const {
  torch::NoGradGuard no_grad;  // layers is never empty (validate: 1..1024)
  const auto top = ln_f->backward(cache.final_norm.row(q), dquery.unsqueeze(2));  // [C, B, 1, D]
  const std::size_t last = layers.size() - 1;
  torch::Tensor g;
  {
    const BlockCache c = cache.block(last);
    g = layers.back()->backward_from_row(c, top, q, cache.pos);
    if (on_block) on_block(last, c);
  }
  for (std::size_t l = last; l-- > 0;) {
    const BlockCache c = cache.block(l);
    g = layers[l]->backward(c, g, cache.pos);
    if (on_block) on_block(l, c);
  }
  return g;
}

torch::Tensor TransformerImpl::backward_from_query_by_block(const ForwardCache& cache,
                                                            const torch::Tensor& dquery,
                                                            std::int64_t q, std::int64_t chunk,
                                                            const BlockVisitor& on_block) const {
  torch::NoGradGuard no_grad;
  TORCH_CHECK(dquery.dim() == 3 && dquery.size(1) == 1 && cache.hidden.size(0) == 1 && chunk >= 1,
              "backward_from_query_by_block expects one sequence, dquery [C, 1, D], chunk >= 1");
  const std::int64_t cot = dquery.size(0), length = cache.pos.length;
  const std::int64_t chunks = (cot + chunk - 1) / chunk;
  // Cotangents are kept position-major, [L, C, D]: one position's C rows are the left operand
  // of its map. A chunk reads and writes only its own columns, so chunks run concurrently.
  auto g = torch::empty({length, cot, dquery.size(2)}, dquery.options());
  auto for_chunks = [&](const std::function<torch::Tensor(std::int64_t, std::int64_t)>& step) {
    at::parallel_for(0, chunks, 1, [&](std::int64_t begin, std::int64_t end) {
      torch::NoGradGuard ng;
      for (std::int64_t i = begin; i < end; ++i) {
        const std::int64_t start = i * chunk, n = std::min(chunk, cot - start);
        const auto dx = step(start, n);  // [n, 1, L, D]
        g.narrow(1, start, n).copy_(dx.squeeze(1).transpose(0, 1));
      }
    });
  };
  auto chunk_of = [](const torch::Tensor& t, std::int64_t start, std::int64_t n) {
    return t.narrow(1, start, n).transpose(0, 1).unsqueeze(1).contiguous();  // [n, 1, L, D]
  };
  {
    const std::size_t last = layers.size() - 1;
    const BlockCache top_cache = cache.block(last);
    for_chunks([&](std::int64_t start, std::int64_t n) {
      const auto top =
          ln_f->backward(cache.final_norm.row(q), dquery.narrow(0, start, n).unsqueeze(2));
      return layers.back()->backward_from_row(top_cache, top, q, cache.pos);
    });
    if (on_block) on_block(last, top_cache);
  }
  // Positions per map product: up to 8 (GEMMs of 8·D rows), fewer when the scaled
  // W_proj copies ([n, D, M_fc]) would pass 64 MB per thread (Qwen2-0.5B: one position).
  const std::int64_t m_fc = cfg_.gated_mlp() ? 2 * cfg_.mlp : cfg_.mlp;
  const std::int64_t positions_per_task = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(64e6 /
                                static_cast<double>(cfg_.d_model * m_fc * dquery.element_size())),
      1, 8);
  for (std::size_t l = layers.size() - 1; l-- > 0;) {
    const Block& block = layers[l];
    const BlockCache c = cache.block(l);
    auto half = torch::empty_like(g);
    at::parallel_for(0, length, positions_per_task, [&](std::int64_t begin, std::int64_t end) {
      torch::NoGradGuard ng;
      for (std::int64_t i = begin; i < end; i += positions_per_task) {
        const std::int64_t n = std::min(positions_per_task, end - i);
        auto out = half.narrow(0, i, n);
        gemm::bmm_out(out, g.narrow(0, i, n), block->mlp_maps(c, i, n)[0]);
      }
    });
    for_chunks([&](std::int64_t start, std::int64_t n) {
      const auto dy_chunk = block->parallel ? chunk_of(g, start, n) : torch::Tensor();
      return block->finish_backward(c, dy_chunk, chunk_of(half, start, n), cache.pos);
    });
    half = torch::Tensor();
    if (on_block) on_block(l, c);
  }
  return g;
}

ActivationCache TransformerImpl::run_with_cache(
    const torch::Tensor& x, const std::function<bool(const std::string&)>& names_filter) {
  torch::NoGradGuard no_grad;
  ForwardCache fc;
  forward_embeddings(x, &fc);
  ActivationCache out;
  // make() runs only for names the filter keeps, so unwanted hooks cost nothing.
  auto put = [&](const std::string& name, const std::function<torch::Tensor()>& make) {
    if (names_filter && !names_filter(name)) return;
    const torch::Tensor t = make();
    if (t.defined()) out.tensors[name] = t;
  };
  const std::int64_t batch = x.size(0), length = x.size(1);
  const std::int64_t heads = cfg_.heads, kv_heads = cfg_.kv_heads, head_dim = cfg_.head_dim();
  // The forward caches keys and values expanded to H heads, [B, H, L, E] (kv head j is
  // repeated at heads j·g .. j·g + g - 1): the first of each group, as [B, L, K, E].
  auto kv_layout = [&](const torch::Tensor& t) {
    const auto grouped =
        heads == kv_heads ? t : t.unflatten(1, {kv_heads, heads / kv_heads}).select(2, 0);
    return grouped.transpose(1, 2).contiguous();
  };
  auto norm_hooks = [&](const std::string& prefix, const NormCache& n) {
    put(prefix + "hook_scale", [&] { return n.rstd.defined() ? n.rstd.reciprocal() : n.rstd; });
    put(prefix + "hook_normalized", [&] { return n.xhat; });
  };
  put("hook_embed", [&] { return x.detach(); });
  if (cfg_.learned_positions()) {
    put("hook_pos_embed", [&] {
      if (position_ids_.defined())  // the rows the forward read
        return wpe.index_select(0, position_ids_.flatten())
            .detach()
            .view({batch, length, cfg_.d_model});
      return wpe.slice(0, 0, length).detach().expand({batch, length, cfg_.d_model}).contiguous();
    });
  }
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  for (std::size_t l = 0; l < fc.blocks.size(); ++l) {
    const BlockCache& b = fc.blocks[l];
    Block block = layers[l];  // a holder copy: its modules run non-const
    const std::string p = "blocks." + std::to_string(l) + ".";
    put(p + "hook_resid_pre", [&] { return b.resid_pre; });
    norm_hooks(p + "ln1.", b.ln1);
    // The forward keeps q and k only rotated (what its backward needs); the unrotated ones
    // are the same qkv GEMM of the same ln1 output, recomputed here when asked for.
    AttentionProjections raw;
    auto projections = [&]() -> const AttentionProjections& {
      if (!raw.q.defined()) raw = block->attn->project_heads(block->ln1(b.resid_pre));
      return raw;
    };
    put(p + "attn.hook_q", [&] { return projections().q.contiguous(); });
    put(p + "attn.hook_k", [&] { return projections().k.contiguous(); });
    put(p + "attn.hook_v", [&] { return kv_layout(b.attn.v); });
    if (fc.pos.rotary > 0) {
      put(p + "attn.hook_rot_q", [&] { return b.attn.q.transpose(1, 2).contiguous(); });
      put(p + "attn.hook_rot_k", [&] { return kv_layout(b.attn.k); });
    }
    put(p + "attn.hook_attn_scores", [&] {
      const torch::Tensor bias = fc.pos.bias.defined()
                                     ? fc.pos.bias  // the dense path's, built once per forward
                                     : fc.pos.score.tile(0, length, 0, length).to(x.scalar_type());
      return torch::matmul(b.attn.q, b.attn.k.transpose(-1, -2)) * scale + bias;
    });
    put(p + "attn.hook_pattern", [&] { return b.attn.pattern; });
    put(p + "attn.hook_z", [&] { return b.attn.z.view({batch, length, heads, head_dim}); });
    put(p + "hook_attn_out", [&] { return b.attn_out; });
    put(p + "hook_resid_mid", [&] { return b.resid_mid; });  // undefined (absent) if parallel
    norm_hooks(p + "ln2.", block->parallel ? b.ln1 : b.ln2);
    const std::int64_t width = cfg_.mlp;
    if (block->mlp->gated) {  // pre = [gate | up]
      put(p + "mlp.hook_pre", [&] { return b.mlp.pre.narrow(-1, 0, width).contiguous(); });
      put(p + "mlp.hook_pre_linear",
          [&] { return b.mlp.pre.narrow(-1, width, width).contiguous(); });
      put(p + "mlp.hook_post", [&] {
        const auto gu = b.mlp.pre.chunk(2, -1);
        return torch::silu(gu[0]) * gu[1];
      });
    } else {
      put(p + "mlp.hook_pre", [&] { return b.mlp.pre; });
      put(p + "mlp.hook_post", [&] { return gelu_tanh(b.mlp.pre); });
    }
    put(p + "hook_mlp_out", [&] { return b.mlp_out; });
    put(p + "hook_resid_post", [&] { return b.resid_post; });
  }
  norm_hooks("ln_final.", fc.final_norm);
  return out;
}

const torch::Tensor& ActivationCache::operator[](const std::string& name) const {
  const auto it = tensors.find(name);
  if (it == tensors.end()) throw std::out_of_range("activation '" + name + "' is not in the cache");
  return it->second;
}

namespace {

// Σ_{i ≥ 2} H_i / ln i over the rows of entropies [..., L] (query i 1-based), and their count.
void add_entropy_ratios(const torch::Tensor& entropy, double& total, std::int64_t& count) {
  const auto l = entropy.size(-1);
  if (l < 2) return;
  const auto uniform = torch::log(torch::arange(2, l + 1, torch::kFloat64));  // ln(i)
  const auto ent = entropy.to(torch::kFloat64).slice(-1, 1, l);
  total += (ent / uniform).sum().item<double>();
  count += ent.numel();
}

// −Σ_j P_ij·log P_ij of every row of a dense pattern [..., L, L]: [..., L].
torch::Tensor pattern_entropy(const torch::Tensor& pattern) {
  const auto p = pattern.to(torch::kFloat64);
  return -(p * torch::log(p.clamp_min(1e-300))).sum(-1);
}

}  // namespace

double attention_entropy_ratio(const std::vector<torch::Tensor>& patterns) {
  EntropyRatioSum sum;
  for (const auto& t : patterns) add_entropy_ratios(pattern_entropy(t), sum.total, sum.count);
  return sum.ratio();
}

EntropyRatioSum attention_entropy_ratio_sum(const BlockCache& block, const PositionContext& pos) {
  EntropyRatioSum sum;
  if (block.attn.pattern.defined()) {
    add_entropy_ratios(pattern_entropy(block.attn.pattern), sum.total, sum.count);
    return sum;
  }
  if (block.attn.entropy.defined()) {  // accumulated by the blockwise forward
    add_entropy_ratios(block.attn.entropy, sum.total, sum.count);
    return sum;
  }
  const double scale = 1.0 / std::sqrt(static_cast<double>(block.attn.q.size(-1)));
  add_entropy_ratios(
      attention_entropy(block.attn.q, block.attn.k, block.attn.lse, pos.score, scale), sum.total,
      sum.count);
  return sum;
}

// Block by block, so that a checkpointed cache holds one recomputed block at a time.
double attention_entropy_ratio(const ForwardCache& cache) {
  EntropyRatioSum sum;
  for (std::size_t l = 0; l < cache.layers(); ++l)
    sum.add(attention_entropy_ratio_sum(cache.block(l), cache.pos));
  return sum.ratio();
}

double ActivationCache::attention_entropy_ratio() const {
  std::vector<torch::Tensor> patterns;
  for (const auto& [name, t] : tensors) {
    if (name.size() >= 12 && name.substr(name.size() - 12) == "hook_pattern") patterns.push_back(t);
  }
  return posbias::attention_entropy_ratio(patterns);
}

}  // namespace posbias
