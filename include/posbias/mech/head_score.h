// One head's positional and symbolic scores (head_scores.h measures them): a plain struct,
// without torch, so the files that hold scores are read where torch is not loaded.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

namespace posbias {

// A head's label, a view of its scores at a purity threshold (head_label in head_scores.h).
enum class HeadLabel { kReflexive, kUniform, kPositional, kSymbolic, kMixed };
std::string_view head_label_name(HeadLabel label);  // reflexive | uniform | positional | ...
// Throws std::invalid_argument naming the labels there are (and a near miss's guess).
HeadLabel parse_head_label(const std::string& name);

struct HeadScore {
  int layer = 0, head = 0;
  double positional = 0, symbolic = 0;  // means over the samples
  double gap = 0;   // pair-weighted |a_i − a_j|: 0 when the query attends evenly
  double self = 0;  // the query's attention on itself (a_Q): the reflexive function
  HeadLabel label = HeadLabel::kMixed;  // at kPureThreshold
  // 95% Student-t intervals of the two means over the samples (score_heads; NaN with fewer
  // than two samples or from score_attention_heads, which averages a batch).
  double positional_low = NAN, positional_high = NAN, symbolic_low = NAN, symbolic_high = NAN;
};

}  // namespace posbias
