#include "posbias/jacobian/jacobian.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "posbias/model/memory_plan.h"

namespace posbias {

namespace {

std::int64_t query_index(const JacobianSpec& spec, std::int64_t length) {
  const std::int64_t q = spec.query == 0 ? length : spec.query;
  if (q < 1 || q > length) {
    throw std::invalid_argument("query must be in 1..L = " + std::to_string(length) + ", got " +
                                std::to_string(q));
  }
  return q - 1;
}

// Cotangents per pass. Small chunks keep the attention intermediates ([H, L, C, L] on the
// dense path) near the cache (measured: 8 cotangents per pass ran ~30% faster than 256 at
// L = 256); the memory budget, shared by the chunks in flight, caps the chunk for long
// sequences. A checkpointed cache takes every cotangent in one pass.
std::int64_t chunk_size(const Transformer& model, std::int64_t length, const JacobianSpec& spec,
                        std::int64_t total, std::int64_t bytes_per_value) {
  if (spec.max_chunk > 0) return std::min(spec.max_chunk, total);
  if (spec.checkpoint) return total;
  const ModelConfig& cfg = model->config();
  const double bpv = static_cast<double>(bytes_per_value);
  const double tile = model->attention() == AttentionPath::kDense
                          ? static_cast<double>(length * length)
                          : static_cast<double>(kAttentionTile * kAttentionTile);
  const double attention = bpv * static_cast<double>(cfg.heads) * tile;
  const double per_cotangent = jacobian_cotangent_bytes(cfg, length, model->attention(), bpv);
  constexpr double kCacheFriendlyBytes = 8e6;
  const auto cache_fit = static_cast<std::int64_t>(kCacheFriendlyBytes / attention);
  const double in_flight = std::max(1, at::get_num_threads());  // one chunk per thread
  const auto memory_fit =
      static_cast<std::int64_t>(spec.memory_budget_gb * 1e9 / (per_cotangent * in_flight));
  return std::clamp<std::int64_t>(std::min(std::max<std::int64_t>(cache_fit, 8), memory_fit), 1,
                                  total);
}

// The MLP half of a block costs 2·D·(M + M_fc) FLOPs per cotangent and position through its
// two GEMMs (M_fc = M, or 2M for SwiGLU's gate|up), against 2·D²·M_fc once per position to
// build its D×D map and 2·D² per cotangent to apply it. The margin covers the map's extra
// passes. Block by block also keeps every cotangent in memory, twice.
bool backward_by_block(const ModelConfig& cfg, std::int64_t length, const JacobianSpec& spec,
                       std::int64_t total, std::int64_t bytes_per_value) {
  if (spec.order != BackwardOrder::kAuto) return spec.order == BackwardOrder::kByBlock;
  // A checkpointed plan with fewer cotangents in flight than there are: chunk after chunk.
  if (spec.checkpoint && spec.max_chunk > 0 && spec.max_chunk < total) return false;
  const double d = static_cast<double>(cfg.d_model), m = static_cast<double>(cfg.mlp);
  const double m_fc = cfg.gated_mlp() ? 2 * m : m, c = static_cast<double>(total);
  const double state = 2.0 * static_cast<double>(bytes_per_value * length) * c * d;
  return c * (m + m_fc - d) >= 1.25 * d * m_fc && state <= 0.5 * spec.memory_budget_gb * 1e9;
}

torch::Tensor autograd_loop(Transformer& model, const torch::Tensor& x, std::int64_t q) {
  const auto input = x.detach().clone().requires_grad_(true);
  const auto y = model->forward_embeddings(input);  // [1, L, D]
  const std::int64_t d = y.size(2);
  torch::Tensor sq = torch::zeros({x.size(1)}, x.options().dtype(torch::kFloat64));
  for (std::int64_t c = 0; c < d; ++c) {
    const auto g =
        torch::autograd::grad({y.index({0, q, c})}, {input}, {}, /*retain_graph=*/true)[0];
    sq += g[0].to(torch::kFloat64).pow(2).sum(-1);
  }
  return sq.sqrt();
}

// p_j = ‖∂f/∂x_j‖₂ for the scalar f of a loss or prob target at query q (0-based).
torch::Tensor scalar_target_profile(Transformer& model, const torch::Tensor& x,
                                    const JacobianSpec& spec, std::int64_t q) {
  if (spec.target == InfluenceTarget::kLoss &&
      (spec.next_token < 0 || spec.next_token >= model->config().vocab)) {
    throw std::invalid_argument("the loss target needs the id of the token after the query");
  }
  const torch::Tensor input = x.detach().requires_grad_(true);
  const torch::Tensor hidden = model->forward_embeddings(input);
  const torch::Tensor logits = model->logits(hidden.select(1, q));  // [1, V]
  const torch::Tensor f =
      spec.target == InfluenceTarget::kLoss
          ? torch::cross_entropy_loss(logits, torch::tensor({spec.next_token}, torch::kInt64))
          : torch::softmax(logits, -1).max();
  const torch::Tensor g = torch::autograd::grad({f}, {input})[0];
  return g.detach()[0].to(torch::kFloat64).norm(2, {1});
}

}  // namespace

torch::Tensor jacobian_profile(Transformer& model, const torch::Tensor& x, const JacobianSpec& spec,
                               ForwardCache* cache_out) {
  if (x.dim() != 3 || x.size(0) != 1)
    throw std::invalid_argument("jacobian_profile expects x of shape [1, L, D]");
  const std::int64_t length = x.size(1), d = x.size(2);
  const std::int64_t q = query_index(spec, length);
  if (spec.target != InfluenceTarget::kHidden) {
    if (cache_out) {
      torch::NoGradGuard no_grad;
      cache_out->checkpoint = spec.checkpoint;
      model->forward_embeddings(x, cache_out);
    }
    return scalar_target_profile(model, x, spec, q);
  }
  if (spec.method == JacobianMethod::kAutogradLoop) return autograd_loop(model, x, q);
  if (spec.method == JacobianMethod::kHutchinson && (spec.probes < 1 || spec.probes > 100000)) {
    throw std::invalid_argument("--probes must be in 1..100000, got " +
                                std::to_string(spec.probes));
  }

  ForwardCache local;
  ForwardCache& cache = cache_out ? *cache_out : local;
  cache.checkpoint = spec.checkpoint;
  {
    torch::NoGradGuard no_grad;
    model->forward_embeddings(x, &cache);
  }
  // Cotangents of y_q: the identity (exact) or Gaussian probes (Hutchinson), [C, D].
  torch::Tensor seeds;
  if (spec.method == JacobianMethod::kExact) {
    seeds = torch::eye(d, x.options());
  } else {
    auto gen = at::detail::createCPUGenerator(spec.probe_seed);
    seeds = at::normal(0.0, 1.0, {spec.probes, d}, gen).to(x.scalar_type());
  }
  const std::int64_t total = seeds.size(0);
  const std::int64_t chunk = chunk_size(model, length, spec, total, x.element_size());
  torch::Tensor sq = torch::zeros({length}, x.options().dtype(torch::kFloat64));
  if (backward_by_block(model->config(), length, spec, total, x.element_size())) {
    const auto dx =
        model->backward_from_query_by_block(cache, seeds.unsqueeze(1), q, chunk, spec.on_block);
    for (std::int64_t j = 0; j < length; ++j)  // [C, D] per position, summed in float64
      sq[j] = dx[j].to(torch::kFloat64).pow(2).sum();
  } else if (spec.checkpoint) {
    // One pass of every cotangent, each block's cache recomputed once; or, when the memory
    // plan allows fewer cotangents in flight, chunks one after another, each recomputing
    // every block (on_block sees each chunk's blocks). Threads inside the ops.
    torch::NoGradGuard no_grad;
    for (std::int64_t start = 0; start < total; start += chunk) {
      const std::int64_t n = std::min(chunk, total - start);
      const auto dx =  // [n, 1, L, D]
          model->backward_from_query(cache, seeds.slice(0, start, start + n).unsqueeze(1), q,
                                     spec.on_block);
      sq += dx.to(torch::kFloat64).pow(2).sum({0, 1, 3});
    }
  } else {
    // Chunks run whole on separate threads (torch, oneDNN and OpenBLAS run single-threaded
    // inside a parallel region), which avoids splitting every small op and GEMM across cores.
    const std::int64_t n_chunks = (total + chunk - 1) / chunk;
    std::vector<torch::Tensor> parts(static_cast<std::size_t>(n_chunks));
    at::parallel_for(0, n_chunks, 1, [&](std::int64_t begin, std::int64_t end) {
      torch::NoGradGuard no_grad;
      for (std::int64_t i = begin; i < end; ++i) {
        const std::int64_t start = i * chunk, n = std::min(chunk, total - start);
        const auto dy = seeds.slice(0, start, start + n).unsqueeze(1);      // [n, 1, D]
        const torch::Tensor dx = model->backward_from_query(cache, dy, q);  // [n, 1, L, D]
        parts[static_cast<std::size_t>(i)] = dx.to(torch::kFloat64).pow(2).sum({0, 1, 3});
      }
    });
    for (const auto& part : parts) sq += part;  // in chunk order: the same sum for any threads
  }
  if (spec.method == JacobianMethod::kHutchinson) sq /= static_cast<double>(total);
  return sq.sqrt();
}

}  // namespace posbias
