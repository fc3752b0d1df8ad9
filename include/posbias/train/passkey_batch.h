// The needle in Brown text as a text run trains and evaluates it (tasks/passkey_task.h): needles
// spliced into a fraction of each training batch's windows, the held-out passkey examples logged
// beside the text loss, and the passkey exact match of a model.
//
// Shapes: windows [B, L + 1] int64 row-major, as sample_windows draws them; the model reads
// ids [B, L] and its logits at the answer's digits are [B, kPasskeyDigits, V].
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/tasks/passkey_task.h"

namespace posbias {

// Replaces, in place, the windows of step `step`'s batch that carry needles: window first + b is
// one when the stream keyed by (seed, step, first + b) draws below config.needle_fraction; it
// keeps its first F Brown ids as the haystack and takes config.needles needles at depths drawn
// by config.depth_prior, and the question about the first drawn. `count` windows in `windows`.
// Returns how many windows carry needles.
std::int64_t add_training_needles(std::vector<std::int64_t>& windows, std::int64_t count,
                                  const TrainConfig& config, const PasskeyCodec& codec,
                                  std::uint64_t step, std::int64_t first = 0);

// The held-out passkey examples logged during training: one per logged held-out window (its
// first F ids the haystack), config.needles needles at uniform depths, from streams keyed by
// (seed, window): the same at every evaluation and on every resume.
std::vector<PasskeyExample> heldout_passkey_examples(const TrainConfig& config,
                                                     const PasskeyCodec& codec,
                                                     const std::vector<std::int64_t>& windows);

// Exact match for each example (all of one length), in eval mode without gradients (the model's
// training mode is restored): every digit of the answer is the argmax after the ids before it.
// Teacher-forced argmax equals greedy decoding here (a greedy decode that gets a digit right
// feeds the same prefix).
std::vector<bool> passkey_exact_matches(Transformer& model,
                                        const std::vector<PasskeyExample>& examples,
                                        std::int64_t batch);

}  // namespace posbias
