// Kv examples as a model reads them (tasks/kv_task.h): the example's L tokens followed by the
// value's first kKvValueTokens − 1 tokens (teacher forcing), and the value's tokens as the
// targets of the last kKvValueTokens positions. Used by training (`train --task kv`), its
// held-out evaluation, `eval` by depth and length, and the influence on the same inputs.
//
// A sink run's model (`train --sink`, train/sink_token.h) reads the sink token first: the ids
// gain a column 0 and the example starts at column 1; the answers and the last positions read are
// the same.
//
// Shapes: ids [B, L + 2 + sink] int64, answers [B, 3] int64, answer logits [B, 3, V].
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/tasks/kv_task.h"

namespace posbias {

struct TrainConfig;

struct KvBatch {
  torch::Tensor ids;      // [B, sink + L + kKvValueTokens − 1]
  torch::Tensor answers;  // [B, kKvValueTokens]
};

// The tokens a model reads for an example of `length` tokens (with the sink token: one more).
inline std::int64_t kv_input_length(std::int64_t length, bool sink) {
  return length + kKvValueTokens - 1 + (sink ? 1 : 0);
}

// Examples of one length, encoded with the kv vocabulary, each after the sink token when `sink`.
// Throws std::invalid_argument when the examples differ in length.
KvBatch encode_kv_examples(const std::vector<KvExample>& examples, bool sink);

// Training draws: examples first .. first + count − 1 of step `step`'s batch, all of the step's
// length (config.step_length), each with n pairs uniform in config.pairs_min..pairs_max (at
// config.length) and its queried pair drawn by config.depth_prior, from the streams keyed by
// (seed, step, example): a data-parallel rank draws its slice alone.
std::vector<KvExample> sample_kv_batch(const TrainConfig& config, std::int64_t count,
                                       std::uint64_t step, std::int64_t first = 0);

// Logits of the value's tokens, [B, kKvValueTokens, V]: the last kKvValueTokens positions.
torch::Tensor kv_answer_logits(Transformer& model, const torch::Tensor& ids);

// Mean cross-entropy of the value's tokens.
torch::Tensor kv_loss(Transformer& model, const KvBatch& batch);

// Exact match for each example, in eval mode without gradients (the model's training mode is
// restored): all kKvValueTokens tokens of the value are the argmax. Teacher-forced argmax equals
// greedy decoding here: a greedy decode that gets a token right feeds the same prefix.
std::vector<bool> kv_exact_matches(Transformer& model, const std::vector<KvExample>& examples,
                                   std::int64_t batch, bool sink);

}  // namespace posbias
