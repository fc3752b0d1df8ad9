// The kv task's part of `birth --run RUN --inputs kv --target answer` (answer_influence.h).
//
// Inputs: for each depth d of --depths, --seeds examples of L tokens with the most pairs that fit
// (n = kv_pairs(L)) and the queried pair at i = round(d·(n − 1)/100): example e at depth d is
// `eval`'s example e of cell (L, d) for the same seed (kv_depth_example). The model reads the
// example and the value's first two tokens (W = L + 2, teacher forcing; a sink run's model reads
// its sink token first, W = L + 3, and every position counts from it) and is scored on the
// value's 3 tokens; the needle is the queried pair's 6 tokens, the distractors the other pairs.
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/runfiles/run_header.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/answer_influence.h"

namespace posbias {

// The kv examples described above, depth-major (all of depths[0], then depths[1], ...).
std::vector<KvExample> kv_influence_inputs(int length, const std::vector<int>& depths,
                                           int per_depth, std::uint64_t seed);
// One kv example as the measurement reads it: after the sink token when `sink` (a `train --sink`
// run), the needle and distractor spans then one position later.
AnswerInput kv_answer_input(const KvExample& example, bool sink);
// The options' inputs, for the kv run whose train.json is `header` (read_run_header;
// std::invalid_argument for another run, a length where fewer than 2 pairs fit, or one past a
// learned position table).
AnswerInputSet kv_answer_inputs(const AnswerInfluenceOptions& options, const RunHeader& header);

}  // namespace posbias
