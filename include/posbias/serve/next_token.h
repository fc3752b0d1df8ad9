// One greedy decoding step for a served model: the argmax token at the last position of each of
// a batch of equal-length inputs, in one forward pass without gradients. What every serve
// backend's BatchQueue runs (hop, kv and text runs alike).
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/serve/batch_queue.h"

namespace posbias {

std::vector<std::int64_t> greedy_last_tokens(Transformer& model,
                                             const std::vector<const BatchQueue::Input*>& batch);

}  // namespace posbias
