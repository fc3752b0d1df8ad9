// The influence row r = e_qᵀ Nᴴ (docs/theory.md), by the stable O(q·H) recurrence.
//
// N_l = (1-α_l) I + α_l A for layer l, A the expected-attention operator (operator.h).
// Repeat per layer: s = r·A (a reverse cumulative sum for the Cesàro operator),
// r ← (1-α_l) r + α_l s. Every term is >= 0, so nothing cancels; sums are compensated.
// Two number types: double (underflows below 1e-308) and ExtReal (never underflows,
// gives log10 at any magnitude). Rows hold positions 1..q (index 0 is position 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/theory/extended_real.h"
#include "posbias/theory/operator.h"

namespace posbias {

// How the paths through different sets of layers combine.
//   kLinear:     r = e_qᵀ Nᴴ, the paper's model: every path adds as a scalar weight.
//   kQuadrature: r_j = sqrt(Σ_S w_S² (e_qᵀ A^|S|)_j²) over the layer sets S that attend,
//                w_S = Π_{l∈S} α_l Π_{l∉S} (1-α_l). Paths through different layer sets carry
//                independent random matrices (products of fresh W_O·W_V and MLP Jacobians),
//                whose Frobenius norms add in quadrature; paths through the same set differ
//                only in positions and add linearly (the A^|S| entry). This is the model for
//                ‖∂y_q/∂x_j‖_F of a network at random init (docs/birth.md).
enum class PathSum { kLinear, kQuadrature };
PathSum parse_path_sum(const std::string& name);  // "linear" | "quadrature"
std::string to_string(PathSum p);

struct InfluenceSpec {
  std::int64_t length = 0;    // L, sequence length (>= 1)
  std::int64_t query = 0;     // q in 1..L; 0 means the last position (q = L)
  std::int64_t layers = 0;    // H >= 0
  std::vector<double> alpha;  // one α for all layers, or exactly H values; each in [0, 1]
  AttentionOperator op;
  PathSum paths = PathSum::kLinear;

  // Throws std::invalid_argument naming the bad value, before any allocation.
  void validate() const;
  std::int64_t query_position() const { return query == 0 ? length : query; }
  double alpha_at(std::int64_t layer) const {
    return alpha.size() == 1 ? alpha[0] : alpha[static_cast<std::size_t>(layer)];
  }
};

// Largest q the engine accepts: its buffers must fit comfortably in physical memory.
std::int64_t max_influence_length();

std::vector<ExtReal> influence_row(const InfluenceSpec& spec);
std::vector<double> influence_row_double(const InfluenceSpec& spec);

// One application s = r·A restricted to positions 1..r.size(). Exposed for tests.
std::vector<double> apply_operator(const AttentionOperator& op, const std::vector<double>& r);
std::vector<ExtReal> apply_operator(const AttentionOperator& op, const std::vector<ExtReal>& r);

// log10 of every entry (exact at any magnitude).
std::vector<double> log10_row(const std::vector<ExtReal>& row);
// Back from log10: 10^(v - max v) for every entry, the row up to a common factor (largest
// entry 1). Entries that would underflow a double stay 1e-300, so later ratios stay finite.
std::vector<double> from_log10_row(const std::vector<double>& log10_values);

}  // namespace posbias
