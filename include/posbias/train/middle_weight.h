// The middle-weighted loss (`train --middle-weight λ`, docs/mitigations.md, remedy 1): paper 1's
// own remedy for a model that neglects the middle of its context. Over n positions i = 0..n−1
// the middle bump is the tent
//
//   m(i) = 1 − |2i/(n − 1) − 1|   (n ≥ 2; m = 0 for n = 1),
//
// 0 at both ends and 1 in the middle (1 − 1/(n − 1) at the two middle positions of an even n),
// and the weight of position i is
//
//   w(i) = (1 + λ·m(i)) / (1 + λ·m̄),   m̄ = (1/n) Σ_j m(j),
//
// so the weights average exactly 1 (the loss keeps its scale and the learning rate its meaning)
// and the middle weighs 1 + λ times the ends. Text and passkey runs weight the next-token loss of
// prediction position i (the token i + 1 predicted from 0..i, n = L) by w(i); kv runs keep their
// loss and draw the queried pair i of an example of n pairs with probability w(i)/n (the data
// remedy: middle depths oversampled by the same shape). λ = 0 is the run without the option.
#pragma once

#include <torch/torch.h>

#include <vector>

#include "posbias/core/rng.h"

namespace posbias {

// w(0..n−1) for λ ≥ 0 and n ≥ 1 (std::invalid_argument otherwise).
std::vector<double> middle_weights(std::int64_t n, double lambda);

// Σ_{b,i} w(i)·CE(logits[b, i], targets[b, i]) / (B·L) for logits [B, L, V] and targets [B, L]:
// the next-token loss of a text window weighted by position.
torch::Tensor middle_weighted_loss(const torch::Tensor& logits, const torch::Tensor& targets,
                                   double lambda);

// The queried pair among `pairs`, i with probability w(i)/pairs: one draw from `rng`.
int draw_middle_weighted(int pairs, double lambda, Rng& rng);

}  // namespace posbias
