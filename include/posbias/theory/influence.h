// The influence row r = e_qᵀ Nᴴ of DESIGN.md §1, by the stable O(q·H) recurrence.
//
// N_l = (1-α_l) I + α_l A for layer l, A the expected-attention operator (operator.h).
// Repeat per layer: s = r·A (a reverse cumulative sum for the Cesàro operator),
// r ← (1-α_l) r + α_l s. Every term is >= 0, so nothing cancels; sums are compensated.
// Two number types: double (underflows below 1e-308) and ExtReal (never underflows,
// gives log10 at any magnitude). Rows hold positions 1..q (index 0 is position 1).
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/theory/extended_real.h"
#include "posbias/theory/operator.h"

namespace posbias {

struct InfluenceSpec {
  std::int64_t length = 0;    // L, sequence length (>= 1)
  std::int64_t query = 0;     // q in 1..L; 0 means the last position (q = L)
  std::int64_t layers = 0;    // H >= 0
  std::vector<double> alpha;  // one α for all layers, or exactly H values; each in [0, 1]
  AttentionOperator op;

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

}  // namespace posbias
