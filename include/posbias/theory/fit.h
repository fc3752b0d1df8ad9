// Fitting the theory to a measured influence profile (docs/theory.md, "Fitting").
//
// A measured profile p_j, j = 1..L (query at L), is compared with c·r_j(α), r = e_Lᵀ Nᴴ.
// α and the gain c are fitted by least squares in log space on positions 1..L-1; the last
// position (the recency anchor, which carries the direct residual path) is reported
// separately. Metrics: Spearman ρ (the paper's, weak), log-space R², Wasserstein-1 between
// the normalized profiles (in units of the sequence length), and a bootstrap CI for α over
// seeds. `posbias theory fit` and `posbias birth` share this code.
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/theory/influence.h"
#include "posbias/theory/operator.h"

namespace posbias {

struct MeasuredProfile {
  std::vector<double> mean;                // p_j, j = 1..L, each > 0
  std::vector<std::vector<double>> seeds;  // optional per-seed profiles, each length L
  void validate() const;                   // throws std::invalid_argument
};

struct FitSpec {
  std::int64_t layers = 0;           // H of the theory (usually the model's layer count)
  AttentionOperator op;              // expected attention (Cesàro by default)
  PathSum paths = PathSum::kLinear;  // how paths through layer sets combine (influence.h)
  int bootstrap = 200;               // bootstrap resamples over seeds (needs >= 2 seeds)
  std::uint64_t seed = 0;            // bootstrap RNG seed
  // Fit α and the gain on positions 1..L (the query's recency anchor too) instead of 1..L-1.
  // The metrics below stay on 1..L-1 either way.
  bool include_query = false;

  // Throws std::invalid_argument naming the bad field (layers, --bootstrap, the operator).
  void validate() const;
};

struct FitResult {
  double alpha = 0;           // log-LSQ fit
  double log10_gain = 0;      // log10 c
  double log_r2 = 0;          // R² of log10 p against log10 c·r(α) on positions 1..L-1
  double spearman = 0;        // Spearman(p, r(α)) on positions 1..L-1
  double w1 = 0;              // Wasserstein-1 between normalized profiles (fraction of L)
  double alpha_spearman = 0;  // α maximizing Spearman (grid), as the paper reports it
  double spearman_best = 0;   // Spearman at alpha_spearman
  double alpha_ci_low = 0, alpha_ci_high = 0;  // 95% bootstrap CI over seeds (NaN: < 2 seeds)
  int seeds = 0;
  double log10_last_measured = 0, log10_last_predicted = 0;  // the recency anchor
  std::vector<double> theory_log10;                          // log10 c·r_j(α), j = 1..L
  PathSum paths = PathSum::kLinear;                          // the path sum fitted
};

FitResult fit_profile(const MeasuredProfile& profile, const FitSpec& spec);

// Metrics, exposed for tests. Spearman uses average ranks for ties.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
double r_squared(const std::vector<double>& observed, const std::vector<double>& predicted);
// W1 between two non-negative profiles on positions 1..n, each normalized to mass 1,
// with positions scaled to x = j/n.
double wasserstein1(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace posbias
