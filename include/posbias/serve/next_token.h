// One decoding step for a served model: for each of a batch of equal-length inputs, the most
// likely token at the last position and the log-probabilities of every token there, in one
// forward pass without gradients. What every serve backend's BatchQueue runs (hop, kv and text
// runs alike). The argmax is taken on the logits themselves, so greedy decoding is exactly the
// in-process argmax.
#pragma once

#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/serve/batch_queue.h"

namespace posbias {

std::vector<NextToken> next_tokens(Transformer& model,
                                   const std::vector<const BatchQueue::Input*>& batch);

}  // namespace posbias
