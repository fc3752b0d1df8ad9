// Attention calibration at evaluation (eval --calibrate; docs/mitigations.md), in the spirit of
// Hsieh et al. 2024, "Found in the middle": each head's position-only component of attention is
// measured on a content-free input and taken out of the attention of every real input.
//
// The content-free input of length n is one token repeated n times (kv: the task's filler "_"):
// every token the same, so whatever varies along a row of attention varies with position alone.
// The position-only component of layer l, head h is the log of that input's attention,
//
//   C[l][h][i][j] = log P⁰[l][h][i][j],  j ≤ i   (0 above the diagonal, where no key is seen),
//
// and calibration at strength α ∈ [0, 1] subtracts α·C from the logits before the softmax:
//
//   P'[i][j] = P[i][j] · P⁰[i][j]^(−α) / Σ_k P[i][k] · P⁰[i][k]^(−α)
//
// (the attention divided by its content-free baseline to the power α, renormalized). Each row
// stays a distribution over the keys it sees. C is estimated layer by layer in one forward of the
// content-free input, each layer under the calibration of the layers before it, so at α = 1 every
// layer's calibrated attention on that input is uniform over the keys each query sees (up to
// float rounding): the definition's positive control. α = 0 installs nothing: plain attention.
//
// C is estimated once at the longest input length N and read at a shorter length n as its
// [n, n] corner: under the causal mask row i of attention sees positions 0..i only, so the first
// n rows of the content-free input of length N are those of length n.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "posbias/model/transformer.h"

namespace posbias {

// Per layer: C as [H, N, N] in the model's dtype.
using PositionComponents = std::vector<torch::Tensor>;

// C of `model` for inputs of up to `length` tokens, on `filler` repeated `length` times, each
// layer estimated under the calibration (strength `alpha`) of the layers before it. Dense
// attention, no grad; the model's hooks are left unset. Throws std::invalid_argument in one line
// for α outside [0, 1], a model with a null sink (its sink takes a share of each row that C has
// no key for) or a length < 1.
PositionComponents estimate_position_components(Transformer& model, std::int64_t filler,
                                                std::int64_t length, double alpha);

// Installs the calibration on every layer's score_hook for as long as it lives, and clears the
// hooks when it goes, whatever happened in between. A forward on an input longer than the
// components' N throws std::logic_error. α = 0 installs nothing.
class CalibratedAttention {
 public:
  CalibratedAttention(Transformer& model, PositionComponents components, double alpha);
  ~CalibratedAttention();
  CalibratedAttention(const CalibratedAttention&) = delete;
  CalibratedAttention& operator=(const CalibratedAttention&) = delete;

 private:
  Transformer& model_;
  PositionComponents components_;
};

}  // namespace posbias
