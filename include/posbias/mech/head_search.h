// A search that could break the discrepancy bound: instead of the hand-set constructions
// (mech/constructions.h), optimise a whole RoPE attention head — every rotary frequency and its
// query and key weights — for the worst-case gap of a function at length n, from many starts.
//
// The head has head_dim = 2F dims, all rotary (F pairs at angles θ_f per position). Its query and
// key are normalised to unit length, so every logit lies in [−1, 1], the constructions' units (the
// constructions are feasible heads: one pair at θ, the others zero). The logit between a query at
// position Q and a key at j = Q − Δ is, in the model code's convention (halves layout),
//   logit(Δ) = Σ_f q_f · R(−Δθ_f) k_f,   R(φ) the 2-D rotation by φ.
//
//   index     ("go back k", positional): one key k for every position (a bias; position alone
//             decides) and one query q_k per offset k = 1..n−1 (the embedding of the token k).
//             gap_k = logit_k(k) − max over Δ ∈ 0..n−1, Δ ≠ k, of logit_k(Δ); the head's gap is the
//             minimum over k. The construction (θ = π/n) gives 1 − cos(π/n) ≈ π²/(2n²); one
//             frequency can give at most 1 − cos(2π/(n−1)) (n points on a circle), reached to
//             1 − cos(2π/n) by θ = 2π/n.
//   retrieval ("find the matching symbol"): one key and one query per symbol s = 0..S−1. For the
//             query symbol r, the matching key sits at any Δ* and the other symbols' keys at any
//             other positions: gap_r = min over Δ* of [logit(r, r, Δ*) − max over s ≠ r,
//             Δ' ≠ Δ* of logit(r, s, Δ')]; the head's gap is the minimum over r. A positional head
//             for retrieval is one whose frequencies are the RoPE schedule (--frequencies rope):
//             with free frequencies the search may turn the rotation off (θ = 0), the symbolic
//             head.
//
// The search maximises a smoothed worst-case gap (log-sum-exp at a temperature that follows the
// gap) with Adam, keeps the best hard gap seen, and always includes the designs (and, in a
// sweep, the previous length's best head) as starts.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "posbias/mech/constructions.h"
#include "posbias/mech/head_search_options.h"

namespace posbias {

SearchFrequencies parse_search_frequencies(const std::string& name);  // free | rope
std::string_view search_frequencies_name(SearchFrequencies f);

// HeadSearchOptions (head_search_options.h) searches the index function unless told otherwise.
static_assert(HeadSearchOptions{}.function == Construction::kIndex);
// std::invalid_argument naming the option when one is out of range.
void validate(const HeadSearchOptions& options);

// A head: frequencies θ [F]; queries [Q, F, 2] (index: Q = n − 1, row k − 1 for offset k;
// retrieval: one per symbol); keys [K, F, 2] (index: K = 1; retrieval: one per symbol). Float64,
// not normalised (the gap normalises each query and key to unit length).
struct SearchHead {
  torch::Tensor theta, query, key;
};

// The head's worst-case gap at length n (exact: hard minima and maxima).
double head_gap(Construction function, const SearchHead& head, std::int64_t length);

// The designs as heads of head_dim dims: the index construction at angle θ (pair 0, or in a fixed
// schedule the pair nearest θ), and the retrieval construction at angle θ and spacing ω for
// `symbols` symbols. `frequencies` empty: free (pair 0 gets θ, the others 0).
SearchHead design_head(Construction function, std::int64_t length, int head_dim, double theta,
                       double omega, int symbols, const torch::Tensor& frequencies = {});

// The schedule's frequencies rope_theta^(−2f/head_dim), f = 0..F−1.
torch::Tensor rope_frequencies(int head_dim, double rope_theta);

struct HeadSearchPoint {
  std::int64_t length = 0;
  double best_gap = 0;          // the best head found (the designs included)
  double construction_gap = 0;  // the design of docs/mech.md at this n (θ = π/n; retrieval θ = 0
                                // or, with a fixed schedule, its slowest pair)
  double single_frequency_gap = 0;  // index: the best one-frequency design, θ = 2π/n
  std::vector<double> start_gaps;   // the best hard gap of each random start
  std::vector<double> theta;        // the best head's frequencies
};

// Peak bytes of one start at length n (the logits and their gradients dominate).
double head_search_bytes(const HeadSearchOptions& options, std::int64_t length);

// Searches at one length. `warm` (may be null): a head found at another length, added as a
// start (index: its queries kept for the offsets both lengths have, the others read its key at
// their distance; with free frequencies also the head stretched to the new length, every
// frequency scaled by the ratio of the lengths), so a sweep over growing n continues from what
// it found. `progress` (may be empty) is called after every start with the starts done and the
// starts this length runs (designs, warm starts and random ones).
HeadSearchPoint search_head(const HeadSearchOptions& options, std::int64_t length,
                            SearchHead* best = nullptr, const SearchHead* warm = nullptr,
                            const std::function<void(int, int)>& progress = {});

}  // namespace posbias
