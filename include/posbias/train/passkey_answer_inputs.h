// The passkey task's part of `birth --run RUN --inputs passkey --target answer`
// (answer_influence.h), on a text run trained with needles (`train --task text
// --needle-fraction F`).
//
// Inputs: for each depth d of --depths, --seeds examples of L tokens with the run's number of
// needles: example e at depth d is `eval`'s example e of cell (L, d) for the same seed
// (passkey_depth_example over the run's held-out text). The model reads the L ids before the
// final "." and is scored on the answer's kPasskeyDigits digits (the ids before each read by
// teacher forcing); the needle is the queried passkey sentence (its newline to its newline), the
// distractors the other needles' sentences.
#pragma once

#include "posbias/runfiles/run_header.h"
#include "posbias/tasks/passkey_task.h"
#include "posbias/train/answer_influence.h"

namespace posbias {

// One passkey example as the measurement reads it.
AnswerInput passkey_answer_input(const PasskeyExample& example);
// The options' inputs, for the passkey run whose train.json is `header` (read_run_header;
// std::invalid_argument for another run, a length the needles and the question do not fit, one
// longer than the held-out text, or one past a learned position table).
AnswerInputSet passkey_answer_inputs(const AnswerInfluenceOptions& options,
                                     const RunHeader& header);

}  // namespace posbias
