// Training position ids other than 0..L−1, the remedies of docs/mitigations.md that change which
// positions a model sees in training, not its architecture:
//  - randomized positions (`train --random-positions N`; Ruoss et al. 2023, "Randomized Positional
//    Encodings Boost Length Generalization of Transformers"): each training sequence's ids are a
//    sorted random subset of 0..N−1 of the sequence's length;
//  - PoSE (`train --pose N`; Zhu et al. 2023, "PoSE: Efficient Context Window Extension of LLMs
//    via Positional Skip-wise Training"): the sequence cut into two chunks, the second one's ids
//    shifted by a random skip, so that the ids reach up to N−1.
// Both apply to rotary positions (the angles at those ids) and learned positions (the table's
// rows at those ids, a table of N rows); evaluation always uses 0..L−1. TrainConfig's checks
// refuse what does not apply (runfiles/train_config.cc).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/core/rng.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

// `length` ids, a sorted random subset of 0..range−1, every subset equally likely (selection
// sampling, Knuth's Algorithm S: id i is taken with probability needed / (range − i)).
// 1 <= length <= range.
std::vector<std::int64_t> random_position_ids(std::int64_t length, std::int64_t range, Rng& rng);

// PoSE's two chunks, as its reference code draws them (train_pose.py, lt = 0): the first chunk
// 0..a−1 with a uniform in 1..⌊(length + 1)/2⌋, the second a + u..length − 1 + u with the skip u
// uniform in 0..range − length, so the last id is at most range − 1. 2 <= length <= range.
struct PoseChunks {
  std::int64_t first = 0;  // a, the first chunk's length
  std::int64_t skip = 0;   // u, added to the second chunk's ids
};
PoseChunks pose_chunks(std::int64_t length, std::int64_t range, Rng& rng);
std::vector<std::int64_t> pose_position_ids(std::int64_t length, std::int64_t range, Rng& rng);

// The ids of a training step, [batch, length] int64: example first + b of step `step` draws its
// row from the stream (seed, step, first + b) of a key of its own (not the data's or the dropout
// masks'), so ranks agree and a resumed run repeats them. Undefined when the config sets
// neither option (the model then uses 0..L−1).
torch::Tensor training_position_ids(const TrainConfig& c, std::int64_t batch, std::int64_t length,
                                    std::uint64_t step, std::int64_t first);

}  // namespace posbias
