// The linearized backward against autograd, the check the attention variants' tests share (null
// sink, log-n scaling): a tiny float64 model's input cotangents from backward_to_input for three
// random output cotangents against torch::autograd::grad, and one query's row
// (backward_from_query at position 7, what birth runs) against the full map with the cotangent
// zero off that position. Each error is relative to the reference's largest entry.
#pragma once

#include <torch/torch.h>

#include <algorithm>

#include "posbias/model/transformer.h"

namespace posbias_test {

struct BackwardErrors {
  double linearized = 0;  // worst over the three cotangents
  double query_row = 0;
};

// `m` in float64 and eval mode, its attention path already set.
inline BackwardErrors backward_errors(posbias::Transformer& m) {
  torch::manual_seed(3);
  const auto x = (torch::randn({1, 12, 16}, torch::kFloat64) * 0.5).requires_grad_(true);
  posbias::ForwardCache cache;
  const auto hidden = m->forward_embeddings(x, &cache);
  const auto dhidden = torch::randn({3, 1, 12, 16}, torch::kFloat64);
  const auto linearized = m->backward_to_input(cache, dhidden);
  BackwardErrors e;
  for (std::int64_t c = 0; c < 3; ++c) {
    const auto want =
        torch::autograd::grad({(hidden * dhidden[c]).sum()}, {x}, {}, /*retain_graph=*/true)[0];
    e.linearized = std::max(e.linearized,
                            ((linearized[c] - want).abs().max() / want.abs().max()).item<double>());
  }
  const auto at_query = torch::zeros_like(dhidden);
  at_query.select(2, 7).copy_(dhidden.select(2, 7));
  const auto full = m->backward_to_input(cache, at_query);
  const auto row = m->backward_from_query(cache, dhidden.select(2, 7), 7);
  e.query_row = ((row - full).abs().max() / full.abs().max()).item<double>();
  return e;
}

}  // namespace posbias_test
