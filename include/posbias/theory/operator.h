// Expected attention at initialization: a lower-triangular row-stochastic L×L operator A.
//
// At init query·key ≈ 0, so softmax attention is uniform over the keys it may see, plus
// whatever fixed bias the architecture adds. posbias models, for query i and key j ≤ i:
//   B[i][j] = mean over heads h of  exp(-m_h (i-j)) / (Z_h(i) + w),  keys i-W < j ≤ i
//   A[i][j] = (1 - sink)·B[i][j] + sink·[j == 1]
// w = e^b is a null sink's weight: every head's softmax normalizer gains e^b for a sink logit b
// whose value is zero, so row i of B sums to Z/(Z + w) (uniform: M_b[i][j] = 1/(i + w)).
// m_h = 0, W = ∞, sink = 0, w = 0 gives the Cesàro operator M of the paper (M[i][j] = 1/i).
// Positions are 1-indexed throughout, as in docs/theory.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

struct AttentionOperator {
  std::int64_t window = 0;           // W: keys per query (sliding window); 0 = all earlier keys
  std::vector<double> alibi_slopes;  // m_h >= 0, one per head; empty = uniform (no ALiBi)
  double sink = 0.0;                 // share of each query's attention on position 1, [0, 1]
  double null_sink_weight = 0.0;     // w = e^b >= 0 added to each head's normalizer; 0 = none

  // Throws std::invalid_argument naming the bad field.
  void validate() const;
  // True for the paper's Cesàro operator (no window, no ALiBi, no sink, no null sink).
  bool is_cesaro() const;
  // Short human-readable name, e.g. "cesaro", "window=64,alibi(2 heads),sink=0.1,null_sink=2"
  // (the null sink by its logit b = ln w).
  std::string describe() const;
  // Row i of A (1-indexed), entries for keys j = 1..i. Brute force, for tests and plots.
  std::vector<double> dense_row(std::int64_t i) const;
};

}  // namespace posbias
