#include "posbias/model/memory_plan.h"

#include <algorithm>
#include <vector>

#include "posbias/core/memory.h"

namespace posbias {
namespace {

// MLP hidden values per position: SwiGLU keeps its gate and up halves.
double mlp_width(const ModelConfig& c) {
  return static_cast<double>(c.gated_mlp() ? 2 * c.mlp : c.mlp);
}

// Scores of one tile and their softmax, per batch row and head.
constexpr double kTileValues = 3.0 * kAttentionTile * kAttentionTile;

}  // namespace

double weight_bytes(const ModelConfig& c, bool token_embeddings, double bytes_per_value) {
  const double d = static_cast<double>(c.d_model);
  const double kv = static_cast<double>(c.kv_heads * c.head_dim());
  // q, k, v and output projections; the MLP's matrices (SwiGLU: gate, up and down).
  const double mlp = (c.gated_mlp() ? 3.0 : 2.0) * d * static_cast<double>(c.mlp);
  const double per_layer = d * (d + 2 * kv) + d * d + mlp + 4 * d;
  double total = static_cast<double>(c.layers) * per_layer;
  if (c.learned_positions()) total += static_cast<double>(c.max_positions) * d;
  if (token_embeddings) {
    total += static_cast<double>(c.vocab) * d * (c.tie_embeddings ? 1 : 2);
  }
  return total * bytes_per_value;
}

double forward_bytes(const ModelConfig& c, std::int64_t batch, std::int64_t length, bool cached,
                     PassPlan plan, double bytes_per_value) {
  const double b = static_cast<double>(batch), l = static_cast<double>(length);
  const double d = static_cast<double>(c.d_model), h = static_cast<double>(c.heads);
  const bool dense = plan.attention == AttentionPath::kDense;
  // q, k, v, z, two norms' x-hat, resid pre/mid/post, attention and MLP outputs: 11 [B, L, D];
  // the MLP's pre-activation and its derivative: 2 [B, L, M].
  const double rows = b * l * (11 * d + 2 * mlp_width(c));
  // dense: [B, H, L, L] weights; blockwise: the log-sum-exp rows [B, H, L]
  const double attention = dense ? b * h * l * l : b * h * l;
  const double block = attention + rows;
  // the layer being computed: dense scores and softmax, or one tile's
  const double transient = (dense ? 2 * b * h * l * l : b * h * kTileValues) + rows;
  const double layers = static_cast<double>(c.layers);
  if (!cached) return transient * bytes_per_value;
  if (!plan.checkpoint) return (layers * block + transient) * bytes_per_value;
  // Block inputs, and one block recomputed: its cache and the temporaries beyond it (the MLP's
  // activation output and a few [B, L, D]).
  const double recompute = block + (dense ? 2 * b * h * l * l : b * h * kTileValues) +
                           b * l * (static_cast<double>(c.mlp) + 4 * d);
  return (layers * b * l * d + recompute) * bytes_per_value;
}

double jacobian_cotangent_bytes(const ModelConfig& c, std::int64_t length, AttentionPath attention,
                                double bytes_per_value) {
  const double l = static_cast<double>(length), d = static_cast<double>(c.d_model);
  const double widest = std::max(2 * mlp_width(c), d);
  if (attention == AttentionPath::kDense) {
    return (4 * static_cast<double>(c.heads) * l * l + 6 * l * widest) * bytes_per_value;
  }
  // dz in two layouts, dq, dk, dv and the qkv rows: ~8 [L, D]; the tile's dP/dS. The MLP half
  // runs in position slices (BlockImpl::mlp_half_sliced) shared by the pass's cotangents:
  // kMlpSliceBytes per pass, counted by plan_jacobian.
  return (8 * l * d + 2 * static_cast<double>(c.heads) * kAttentionTile * kAttentionTile) *
         bytes_per_value;
}

double training_step_bytes(const ModelConfig& c, std::int64_t batch, std::int64_t length,
                           AttentionPath attention, double bytes_per_value) {
  // Weights, gradients and two AdamW moments.
  const double state = 4 * weight_bytes(c, /*token_embeddings=*/true, bytes_per_value);
  // Autograd keeps about what the linearized cache keeps per block, plus the dense path's
  // softmax output and its gradient, and the logits, their softmax and gradient.
  const double b = static_cast<double>(batch), l = static_cast<double>(length);
  const double activations =
      forward_bytes(c, batch, length, /*cached=*/true, {attention, false}, bytes_per_value) +
      (attention == AttentionPath::kDense ? b * static_cast<double>(c.heads) * l * l : 0) *
          bytes_per_value +
      3 * b * l * static_cast<double>(c.vocab) * bytes_per_value;
  return state + 2 * activations;  // the backward's gradients mirror the activations
}

JacobianPlan plan_jacobian(const ModelConfig& cfg, std::int64_t length, std::int64_t cotangents,
                           int threads, bool token_embeddings, double budget,
                           std::optional<AttentionPath> forced) {
  struct Candidate {
    PassPlan pass;
    std::int64_t in_flight;  // 0: chunks of at most 8 per thread, on threads
  };
  std::vector<Candidate> candidates;
  for (PassPlan p :
       {PassPlan{AttentionPath::kDense, false}, PassPlan{AttentionPath::kBlockwise, false}}) {
    if (!forced || *forced == p.attention) candidates.push_back({p, 0});
  }
  // Checkpointed: every cotangent in one pass, then half as many per pass, down to
  // kMaxPasses passes (each pass recomputes every block: time for memory, at most 8x).
  constexpr std::int64_t kMaxPasses = 8;
  const AttentionPath checkpointed = forced.value_or(AttentionPath::kBlockwise);
  const std::int64_t all = std::max<std::int64_t>(1, cotangents);
  const std::int64_t fewest = (all + kMaxPasses - 1) / kMaxPasses;
  for (std::int64_t n = all;; n = std::max(fewest, (n + 1) / 2)) {
    candidates.push_back({{checkpointed, true}, n});
    if (n == fewest) break;
  }
  // Block inputs, the recomputed block, and what birth reads off it while the cotangents wait:
  // four float64 and two float32 [L, D] and one MLP slice.
  const double readings =
      40.0 * static_cast<double>(length) * static_cast<double>(cfg.d_model) + kMlpSliceBytes;
  JacobianPlan best;
  for (const Candidate& c : candidates) {
    const PassPlan& p = c.pass;
    const std::int64_t passes = p.checkpoint ? 1 : std::max(1, threads);
    const std::int64_t in_flight =
        p.checkpoint ? c.in_flight : std::min<std::int64_t>(cotangents, 8 * passes);
    const double mlp_slices =
        p.attention == AttentionPath::kBlockwise ? static_cast<double>(passes) * kMlpSliceBytes : 0;
    const double cotangent_bytes =
        static_cast<double>(in_flight) * jacobian_cotangent_bytes(cfg, length, p.attention);
    // The readings follow a block's backward: its input and output cotangents are all it keeps.
    const double waiting = static_cast<double>(in_flight) * 2 * static_cast<double>(length) *
                           static_cast<double>(cfg.d_model) * 4;
    const JacobianPlan plan{p,
                            weight_bytes(cfg, token_embeddings) +
                                forward_bytes(cfg, 1, length, true, p) +
                                std::max(cotangent_bytes + mlp_slices, waiting + readings),
                            p.checkpoint ? in_flight : 0};
    if (budget <= 0 || plan.bytes <= budget) return plan;
    if (best.bytes == 0 || plan.bytes < best.bytes) best = plan;
  }
  return best;
}

AttentionPath plan_attention(const std::function<double(AttentionPath)>& bytes,
                             std::optional<AttentionPath> forced, double budget_gb,
                             const std::string& what, const std::string& smaller) {
  const double budget = memory_budget_bytes(budget_gb);
  AttentionPath path = AttentionPath::kDense;
  if (forced) {
    path = *forced;
  } else {
    const double dense = bytes(AttentionPath::kDense);
    if (budget > 0 && dense > budget && bytes(AttentionPath::kBlockwise) < dense)
      path = AttentionPath::kBlockwise;
  }
  // Blockwise is worth naming only where it would fit.
  const bool blockwise_helps =
      path == AttentionPath::kDense && (budget <= 0 || bytes(AttentionPath::kBlockwise) <= budget);
  require_memory(bytes(path), what + " (" + to_string(path) + " attention)",
                 blockwise_helps ? "use --attention blockwise or " + smaller : "use " + smaller,
                 budget_gb);
  return path;
}

}  // namespace posbias
