#include "posbias/model/memory_plan.h"

#include <algorithm>

namespace posbias {
namespace {

// MLP hidden values per position: SwiGLU keeps its gate and up halves.
double mlp_width(const ModelConfig& c) {
  return static_cast<double>(c.gated_mlp() ? 2 * c.mlp : c.mlp);
}

}  // namespace

double weight_bytes(const ModelConfig& c, bool token_embeddings, double bytes_per_value) {
  const double d = static_cast<double>(c.d_model);
  const double kv = static_cast<double>(c.kv_heads * c.head_dim());
  // q, k, v and output projections; the MLP's matrices (SwiGLU: gate, up and down).
  const double mlp = (c.gated_mlp() ? 3.0 : 2.0) * d * static_cast<double>(c.mlp);
  const double per_layer = d * (d + 2 * kv) + d * d + mlp + 4 * d;
  double total = static_cast<double>(c.layers) * per_layer;
  if (c.pos == PosEncoding::kLearned) total += static_cast<double>(c.max_positions) * d;
  if (token_embeddings) {
    total += static_cast<double>(c.vocab) * d * (c.tie_embeddings ? 1 : 2);
  }
  return total * bytes_per_value;
}

double forward_bytes(const ModelConfig& c, std::int64_t batch, std::int64_t length, bool cached,
                     double bytes_per_value) {
  const double b = static_cast<double>(batch), l = static_cast<double>(length);
  const double d = static_cast<double>(c.d_model), h = static_cast<double>(c.heads);
  const double scores = b * h * l * l;  // [B, H, L, L]
  // q, k, v, z, two norms' x-hat, resid pre/mid/post, attention and MLP outputs: 11 [B, L, D];
  // the MLP's pre-activation and its derivative: 2 [B, L, M].
  const double rows = b * l * (11 * d + 2 * mlp_width(c));
  const double block = scores + rows;
  const double transient = 2 * scores + rows;  // scores and softmax of the layer being computed
  const double layers = cached ? static_cast<double>(c.layers) : 1.0;
  return (layers * block + transient) * bytes_per_value;
}

double jacobian_cotangent_bytes(const ModelConfig& c, std::int64_t length, double bytes_per_value) {
  const double l = static_cast<double>(length);
  const double attention = static_cast<double>(c.heads) * l * l;
  const double widest = std::max(2 * mlp_width(c), static_cast<double>(c.d_model));
  return (4 * attention + 6 * l * widest) * bytes_per_value;
}

}  // namespace posbias
