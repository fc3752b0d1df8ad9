// Continuous limit of the Cesàro influence row (docs/theory.md), x = j/L, L → ∞.
//
//   ρ(x) = w_0 δ(1-x) + Σ_{k=1..H} w_k (ln 1/x)^{k-1}/(k-1)!
// where w_k are the coefficients of Π_l ((1-α_l) + α_l z); for one α,
// w_k = C(H,k)(1-α)^{H-k} α^k. Term k is the density of a product of k uniforms, so masses
// on intervals are upper regularized gamma functions Q(k, ln 1/x) (finite sums, exact).
#pragma once

#include <cstdint>
#include <vector>

namespace posbias {

class Continuum {
 public:
  // alpha: one value or one per layer. Throws std::invalid_argument when H > kMaxLayers.
  Continuum(std::int64_t layers, const std::vector<double>& alpha);
  static constexpr std::int64_t kMaxLayers = 20000;

  double recency_mass() const;            // w_0 = Π_l (1-α_l): the δ at x = 1
  double log10_density(double x) const;   // continuous part, 0 < x < 1
  double density(double x) const;         // may underflow to 0; use log10_density
  double mass(double a, double b) const;  // continuous part on [a, b], 0 <= a <= b <= 1
  double primacy_mass(double epsilon) const { return mass(0.0, epsilon); }
  // Mean density on [1/4, 3/4] over mean density (δ included) on the outer half.
  double middle_to_ends() const;
  const std::vector<double>& log_weights() const { return log_weights_; }  // ln w_k

 private:
  std::int64_t layers_;
  std::vector<double> log_weights_;  // ln w_k, k = 0..H (may be -inf)
};

}  // namespace posbias
