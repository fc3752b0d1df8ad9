#include "posbias/train/middle_weight.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {

std::vector<double> middle_weights(std::int64_t n, double lambda) {
  if (n < 1) throw std::invalid_argument("middle_weights: n must be >= 1");
  if (!(std::isfinite(lambda) && lambda >= 0)) {
    throw std::invalid_argument("--middle-weight needs λ >= 0, got " + std::to_string(lambda));
  }
  std::vector<double> w(static_cast<std::size_t>(n), 1.0);
  if (n == 1) return w;
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double m = 1 - std::abs(2.0 * static_cast<double>(i) / static_cast<double>(n - 1) - 1);
    w[static_cast<std::size_t>(i)] = 1 + lambda * m;
    sum += w[static_cast<std::size_t>(i)];
  }
  const double mean = sum / static_cast<double>(n);  // 1 + λ·m̄
  for (double& x : w) x /= mean;
  return w;
}

torch::Tensor middle_weighted_loss(const torch::Tensor& logits, const torch::Tensor& targets,
                                   double lambda) {
  if (logits.dim() != 3 || targets.dim() != 2 || logits.size(0) != targets.size(0) ||
      logits.size(1) != targets.size(1)) {
    throw std::invalid_argument("middle_weighted_loss: logits [B, L, V] and targets [B, L]");
  }
  const std::int64_t rows = logits.size(0), length = logits.size(1);
  const std::vector<double> w = middle_weights(length, lambda);
  const torch::Tensor weights =
      torch::tensor(w, torch::kFloat64).to(logits.scalar_type()).reshape({1, length});
  const torch::Tensor per_position =
      torch::cross_entropy_loss(logits.reshape({rows * length, logits.size(2)}),
                                targets.reshape({-1}), {}, at::Reduction::None)
          .reshape({rows, length});
  return (per_position * weights).mean();
}

int draw_middle_weighted(int pairs, double lambda, Rng& rng) {
  const std::vector<double> w = middle_weights(pairs, lambda);
  // u uniform in [0, 1) on 53 bits, as the kv depth priors draw theirs; the weights sum to n.
  const double target = rng.unit() * pairs;
  double cumulative = 0;
  for (int i = 0; i < pairs; ++i) {
    cumulative += w[static_cast<std::size_t>(i)];
    if (target < cumulative) return i;
  }
  return pairs - 1;  // rounding at the top of the last interval
}

}  // namespace posbias
