// One head's positional and symbolic scores (head_scores.h measures them): a plain struct,
// without torch, so the files that hold scores are read where torch is not loaded.
#pragma once

#include <cmath>
#include <string>

namespace posbias {

struct HeadScore {
  int layer = 0, head = 0;
  double positional = 0, symbolic = 0;  // means over the samples
  double gap = 0;     // pair-weighted |a_i − a_j|: 0 when the query attends evenly
  double self = 0;    // the query's attention on itself (a_Q): the reflexive function
  std::string label;  // reflexive | positional | symbolic | mixed | uniform, at kPureThreshold
  // 95% Student-t intervals of the two means over the samples (score_heads; NaN with fewer
  // than two samples or from score_attention_heads, which averages a batch).
  double positional_low = NAN, positional_high = NAN, symbolic_low = NAN, symbolic_high = NAN;
};

}  // namespace posbias
