// Which model of the influence profile predicts held-out seeds best (docs/birth.md).
//
// The seeds split in two halves: even-numbered seeds (0, 2, ...) fit, odd-numbered seeds
// score. Every model predicts all positions 1..L, the query included, and is scored by
// shape_metrics on the held-out mean (unit-sum normalized, so gains drop out):
//   theory_fit    the theory row with α and the gain fitted on the fit half (2 parameters)
//   theory_nofit  the theory row with the measured per-layer α̂ (nothing fitted: 0)
//   rollout       the measured attention per layer with α̂ (0)
//   power_law     log p = a + b·log j, least squares on the fit half (2)
//   exponential   log p = a + b·j (2)
#pragma once

#include <string>
#include <vector>

#include "posbias/theory/fit.h"
#include "posbias/theory/shape_comparison.h"

namespace posbias {

struct ModelScore {
  std::string model;
  int free_params = 0;
  ShapeMetrics heldout;     // against the held-out seeds' mean
  std::vector<double> fit;  // fitted parameters (theory_fit: α, log10 gain; laws: a, b)
};

struct ComparisonInput {
  std::vector<std::vector<double>> seeds;  // [S >= 2][L] measured profiles
  FitSpec theory;                          // layers, operator and path sum of theory_fit
  std::vector<double> nofit, rollout;      // predictions over 1..L; empty = not compared
};

// Throws std::invalid_argument for fewer than 2 seeds or mismatched lengths.
std::vector<ModelScore> compare_models(const ComparisonInput& input);

}  // namespace posbias
