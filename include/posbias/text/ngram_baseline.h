// The unigram and bigram baselines a text model must beat, in held-out bits per byte over
// the same targets as the model's evaluation. Counted on the training stream with nothing
// tuned on held-out data: the unigram is add-one smoothed; the bigram interpolates absolute
// discounting (D = 0.75) with that unigram, P(w|v) = max(c(v,w) − D, 0)/c(v) +
// D·T(v)/c(v)·P(w), T(v) the distinct successors of v (P(w) alone for an unseen v).
#pragma once

#include <cstdint>
#include <vector>

namespace posbias {

struct NgramBaselines {
  double unigram_bits_per_byte = 0, bigram_bits_per_byte = 0;
};

// Scores the targets of `windows` (row-major [n, length + 1]; every id but a window's first,
// the bigram conditioned on the id before it).
NgramBaselines ngram_baselines(const std::vector<std::int32_t>& train,
                               const std::vector<std::int64_t>& windows, std::int64_t length,
                               const std::vector<std::int32_t>& token_bytes);

}  // namespace posbias
