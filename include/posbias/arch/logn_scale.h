// Log-n attention scaling (`train --logn-scale s`, `eval --logn-scale s`): scalable softmax
// (SSMax, Nakanishi 2025). Query i's attention logits z_ij = q_i·k_j/√E are multiplied by
// s·log(n_i) before the softmax, n_i the number of keys the query sees: i + 1 under the causal
// mask (i the 0-based position), min(i + 1, W) with a sliding window of W keys. The row's
// weights are then n_i^(s·z_ij) / Σ_j n_i^(s·z_ij), so a row over more keys is sharper by the
// log of their number (the query at position 0 sees one key and keeps weight 1 on it). This is
// the per-row choice of SSMax's n; Chiang & Cholak (2022) scale every logit by log n of the
// whole input, Qwen's logn attention by max(1, log n / log L_train). Here s is a fixed number,
// not learned (SSMax learns one per head). No option, no scaling: the plain softmax, bit for
// bit. No libtorch here.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace posbias {

// s must be finite, > 0 and at most kMaxLognScale (std::invalid_argument naming --logn-scale).
constexpr double kMaxLognScale = 100.0;
void check_logn_scale(double s);

// The factor s·log(n_i) of every query row i = 0..length−1 (window 0: no window).
std::vector<double> logn_factors(double s, std::int64_t length, std::int64_t window);

// `eval --logn-scale`: the scale given at evaluation (none: not given) against the run's own
// (train --logn-scale; none: trained without). Refused in one line (std::invalid_argument) when
// both are set, since that model already scales its logits; a given s must pass
// check_logn_scale.
void check_eval_logn_scale(const std::optional<double>& eval_scale,
                           const std::optional<double>& trained_scale);

}  // namespace posbias
