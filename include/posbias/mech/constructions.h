// The two attention constructions of docs/mech.md, as real single-head attention layers of
// the model code (an Attention module with 2-D RoPE, weights set by hand, in double
// precision), run on the hop tasks' own inputs.
//
// Layer: d_model 4, one head of dim 4, rotary on the first 2 dims at angle θ per position.
// The input embedding of a token is (key phase, query phase) as two unit vectors:
//   index     (Number task, "go back k"): integer k → query phase −kθ; keys are the constant
//             (1, 0) from the key bias. Logit(Q, j) = cos((Q − j)θ − kθ): the best key is k back
//             (logit 1), a key m from it has cos(mθ), m = 1 … n − 1, so the gap is
//             1 − max_m cos(mθ): 1 − cos θ while θ ≤ 2π/n, at best 1 − cos(2π/n) ≈ 2π²/n². The
//             construction's θ = π/n keeps every rival within half a turn: 1 − cos(π/n) ≈ π²/(2n²).
//   retrieval (Letter task, "find the matching symbol"): "l:r" → key phase ω_l, query phase
//             ω_r, with ω_s = s·ω for the 8 letters. Logit = cos(ω_r − ω_l + (Q − j)θ): with
//             θ = 0 the gap is 1 − cos ω at every n; with θ > 0 it degrades as 1 − cos(ω − nθ).
//   reflexive (the paper's third function, "pass on the current token"): the query (1, 0) and
//             every key (1, 0) come from the biases, so logit(Q, j) = cos((Q − j)θ): the query
//             attends to itself and a key m back has cos(mθ): the index head's rivals and gap
//             (a positional reflexive head); the input is only the value.
// The query weights are scaled by 2 = √(head dim) so the logits are exactly these cosines.
#pragma once

#include <torch/torch.h>

#include <vector>

#include "posbias/model/layers.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

enum class Construction { kIndex, kRetrieval, kReflexive };
Construction parse_construction(const std::string& name);  // index | retrieval | reflexive
std::string_view construction_name(Construction c);
Task construction_task(Construction c);  // index, reflexive → Number; retrieval → Letter

// The hand-set layer (eval mode, double precision).
Attention make_construction_layer(Construction c);

// Rotary tables at angle θ per position (one 2-D pair) and the causal rule, length n; the rule
// is applied per query row (no [n, n] mask), so memory is linear in n.
PositionContext construction_positions(std::int64_t length, double theta);

// Input embeddings [B, n, 4] of task examples (all of one length).
torch::Tensor construction_inputs(Construction c, const std::vector<Example>& examples,
                                  double theta, double omega);

// One length: the query's logits over all positions, the gap between the top two (the
// discrepancy), and whether the top key is the target alone: the first look-up's (chain[0]),
// or for reflexive the query's own position.
struct ConstructionResult {
  std::vector<double> discrepancy;  // per example
  std::vector<bool> correct;        // per example: argmax = target, strictly above the rest
};
ConstructionResult run_construction(Construction c, const std::vector<Example>& examples,
                                    double theta, double omega);
// Peak bytes of run_construction on `count` examples of length n, the examples included.
double construction_bytes(std::int64_t count, std::int64_t length);

// The theory's curves at length n: index and reflexive 1 − max over m = 1 … n − 1 of cos(mθ),
// the gap of one frequency against its worst rival (1 − cos θ while θ ≤ 2π/n);
// retrieval 1 − cos(ω − nθ) (= 1 − cos ω when θ = 0), the theory's rate of decay, and 0 once
// nθ ≥ ω. For θ > 0 this rate is not a strict bound: a far correct key also loses 1 − cos(nθ).
double construction_bound(Construction c, std::int64_t length, double theta, double omega);

}  // namespace posbias
