// Scoring a hop model: examples → token-id batches, and accuracy per hop (the argmax of the
// logits at the last position against the answer token). Used by training's held-out
// evaluation, `posbias eval`, and the LLM harness's comparison with our own models.
//
// Shapes: ids [B, L] int64, answers [B] int64, logits [B, V].
#pragma once

#include <torch/torch.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

struct HopBatch {
  torch::Tensor ids;      // [B, L]
  torch::Tensor answers;  // [B]
};

// Examples [begin, end) of one length, encoded with the task's shared vocabulary.
HopBatch encode_examples(const std::vector<Example>& examples, std::size_t begin, std::size_t end);

// Examples per forward pass at an input length: keeps the [B, L, L] attention scores near
// 50M floats (256 at the training length, 1 beyond ~7000 tokens).
std::int64_t eval_batch_size(std::int64_t length);

// The examples of `spec` handed to `visit` in order, `batch` at a time (the last batch may be
// shorter), generated as they are needed: the peak holds one batch whatever spec.count is.
// Given `hops`, only the examples of those hops are handed on (the others are still generated,
// unscored, so each kept example is the one the whole spec draws): a long evaluation split by
// hop scores, hop for hop, the examples it would score whole.
void for_each_batch(const DatasetSpec& spec, std::int64_t batch,
                    const std::function<void(const std::vector<Example>&)>& visit,
                    const std::vector<int>& hops = {});

// Every example of `spec` encoded, [count, L] ids and [count] answers, generated one at a time
// into the tensors (no vector of examples: hop_examples_bytes is never paid for all of them).
HopBatch encode_dataset(const DatasetSpec& spec);

// Bytes of `rows` examples of `length` tokens held as Examples (a std::string per token) and
// encoded beside them (an int64 id per token): what one batch of for_each_batch costs.
double hop_examples_bytes(std::int64_t rows, std::int64_t length);

struct HopAccuracy {
  std::map<int, std::int64_t> correct, total;  // by hops
  std::map<int, double> chance_sum;            // by hops: Σ 1/answer_candidates over the examples
  std::int64_t decoy_picks = 0;                // predictions equal to the decoy's target
  double hop(int h) const;
  double all() const;
  double decoy_rate() const;
  std::map<std::string, double> by_name() const;  // {"1": acc, ..., "all": acc}
  nlohmann::json to_json() const;                 // by_name() as JSON
  // The chance level of the same examples: the mean of 1/answer_candidates, the accuracy of
  // a uniform guess among the input's candidate answers.
  double chance(int h) const;
  double chance_all() const;
  std::map<std::string, double> chance_by_name() const;  // {"1": chance, ..., "all": chance}
  nlohmann::json chance_json() const;                    // chance_by_name() as JSON
};

// Greedy answers at the last position, in eval mode without gradients (the model's training
// mode is restored). Examples may have different lengths; each length is batched separately.
HopAccuracy evaluate_hops(Transformer& model, const std::vector<Example>& examples,
                          std::int64_t batch = 256);
// The same over the examples of `spec`, generated `batch` at a time (for_each_batch): the same
// batches and answers as evaluate_hops(model, make_dataset(spec), batch), without holding them.
// Given `hops`, only those hops' examples are scored (for_each_batch's `hops`).
HopAccuracy evaluate_hops(Transformer& model, const DatasetSpec& spec, std::int64_t batch,
                          const std::vector<int>& hops = {});

// The predicted answer token id for every example (same order).
std::vector<std::int64_t> predict_answers(Transformer& model, const std::vector<Example>& examples,
                                          std::int64_t batch = 256);

}  // namespace posbias
