#include "posbias/train/kv_batch.h"

#include <stdexcept>

#include "posbias/core/rng.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/train/middle_weight.h"
#include "posbias/train/sink_token.h"

namespace posbias {

KvBatch encode_kv_examples(const std::vector<KvExample>& examples, bool sink) {
  if (examples.empty()) throw std::invalid_argument("encode_kv_examples: no examples");
  const std::int64_t rows = static_cast<std::int64_t>(examples.size());
  const std::int64_t length = examples.front().length();
  const std::int64_t width = kv_input_length(length, sink);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(rows * width));
  std::vector<std::int64_t> answers(static_cast<std::size_t>(rows * kKvValueTokens));
  for (std::int64_t r = 0; r < rows; ++r) {
    const KvExample& ex = examples[static_cast<std::size_t>(r)];
    if (ex.length() != length) {
      throw std::invalid_argument("encode_kv_examples: examples of lengths " +
                                  std::to_string(length) + " and " + std::to_string(ex.length()) +
                                  " in one batch");
    }
    std::int64_t* row = ids.data() + r * width;
    if (sink) *row++ = sink_token_id();
    for (std::int64_t t = 0; t < length; ++t) row[t] = kv_token_id(ex.tokens[t]);
    for (int v = 0; v < kKvValueTokens; ++v) {
      const std::int64_t id = kv_token_id(ex.tokens[ex.position + kKvKeyTokens + v]);
      answers[static_cast<std::size_t>(r * kKvValueTokens + v)] = id;
      if (v + 1 < kKvValueTokens) row[length + v] = id;
    }
  }
  return {torch::from_blob(ids.data(), {rows, width}, torch::kInt64).clone(),
          torch::from_blob(answers.data(), {rows, kKvValueTokens}, torch::kInt64).clone()};
}

std::vector<KvExample> sample_kv_batch(const TrainConfig& c, std::int64_t count, std::uint64_t step,
                                       std::int64_t first) {
  if (first < 0 || count < 0) throw std::invalid_argument("sample_kv_batch: negative slice");
  const DepthPrior prior = c.depth_prior;
  // The pair range is the run's at --length whatever the step's length: with length_max the
  // extra tokens are fillers at the start, so only where the pairs sit changes.
  const int most = c.pairs_max > 0 ? c.pairs_max : kv_pairs(c.length);
  const int length = c.step_length(static_cast<std::int64_t>(step));
  std::vector<KvExample> out;
  out.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = first; i < first + count; ++i) {
    Rng rng = Rng::stream(c.seed, step, 4 + (static_cast<std::uint64_t>(i) << 8));
    const int pairs = c.pairs_min + static_cast<int>(rng.below(most - c.pairs_min + 1));
    if (c.middle_weight) {  // the queried pair by the middle weight (train/middle_weight.h)
      const int queried = draw_middle_weighted(pairs, *c.middle_weight, rng);
      out.push_back(generate_kv_example(length, queried, prior, rng, pairs));
    } else {
      out.push_back(draw_kv_example(length, prior, rng, pairs));
    }
  }
  return out;
}

torch::Tensor kv_answer_logits(Transformer& model, const torch::Tensor& ids) {
  const std::int64_t width = ids.size(1);
  const torch::Tensor hidden =
      model->forward_embeddings(model->embed(ids)).slice(1, width - kKvValueTokens, width);
  return model->logits(hidden);
}

torch::Tensor kv_loss(Transformer& model, const KvBatch& batch) {
  const torch::Tensor logits = kv_answer_logits(model, batch.ids).to(torch::kFloat32);
  return torch::cross_entropy_loss(logits.reshape({-1, logits.size(2)}),
                                   batch.answers.reshape({-1}));
}

std::vector<bool> kv_exact_matches(Transformer& model, const std::vector<KvExample>& examples,
                                   std::int64_t batch, bool sink) {
  const bool was_training = model->is_training();
  model->eval();
  torch::NoGradGuard no_grad;
  std::vector<bool> out;
  out.reserve(examples.size());
  for (std::size_t begin = 0; begin < examples.size(); begin += static_cast<std::size_t>(batch)) {
    const std::size_t end = std::min(examples.size(), begin + static_cast<std::size_t>(batch));
    const std::vector<KvExample> slice(examples.begin() + static_cast<std::ptrdiff_t>(begin),
                                       examples.begin() + static_cast<std::ptrdiff_t>(end));
    const KvBatch b = encode_kv_examples(slice, sink);
    const torch::Tensor right =
        kv_answer_logits(model, b.ids).argmax(2).eq(b.answers).all(1).contiguous();
    const bool* p = right.data_ptr<bool>();
    for (std::int64_t r = 0; r < right.size(0); ++r) out.push_back(p[r]);
  }
  if (was_training) model->train();
  return out;
}

}  // namespace posbias
