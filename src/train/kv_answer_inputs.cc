#include "posbias/train/kv_answer_inputs.h"

#include <fmt/format.h>

#include <stdexcept>

#include "posbias/runfiles/train_config.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/sink_token.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// The run's config, checked for a kv influence measurement; returns the length measured.
std::int64_t checked_kv_length(const AnswerInfluenceOptions& o, const TrainConfig& c) {
  if (c.task != Task::kKv) {
    throw std::invalid_argument("--inputs kv needs a kv run (`posbias train --task kv`); '" +
                                o.run + "' is a " + std::string(task_name(c.task)) + " run");
  }
  const std::int64_t length = o.length == 0 ? c.length : o.length;
  if (length < kKvMinLength) {
    throw std::invalid_argument(
        fmt::format("-L {}: fewer than {} kv pairs fit; give -L of at least {}", length,
                    kKvMinPairs, kKvMinLength));
  }
  const ModelConfig m = c.model_config();
  const std::int64_t read = kv_input_length(length, c.sink);
  if (m.position_limit() && read > *m.position_limit()) {
    throw std::invalid_argument(fmt::format(
        "-L {}: the model reads {} tokens but its learned position table has {}; give -L of at "
        "most {}",
        length, read, m.max_positions, m.max_positions - (read - length)));
  }
  return length;
}

}  // namespace

std::vector<KvExample> kv_influence_inputs(int length, const std::vector<int>& depths,
                                           int per_depth, std::uint64_t seed) {
  kv_pairs(length);  // std::invalid_argument when fewer than 2 pairs fit
  std::vector<KvExample> out;
  for (int d : depths) {
    for (int e = 0; e < per_depth; ++e) out.push_back(kv_depth_example(length, d, e, seed));
  }
  return out;
}

AnswerInput kv_answer_input(const KvExample& example, bool sink) {
  const KvBatch batch = encode_kv_examples({example}, sink);
  AnswerInput in;
  const torch::Tensor ids = batch.ids[0].contiguous(), answers = batch.answers[0].contiguous();
  in.ids.assign(ids.data_ptr<std::int64_t>(), ids.data_ptr<std::int64_t>() + ids.numel());
  in.answer.assign(answers.data_ptr<std::int64_t>(),
                   answers.data_ptr<std::int64_t>() + answers.numel());
  in.from = static_cast<int>(in.ids.size()) - kKvValueTokens;
  // The pairs' spans in the ids read: after the sink token when there is one.
  const int first =
      sink_tokens(sink) + example.length() - kKvQueryTokens - example.pairs * kKvPairTokens;
  for (int i = 0; i < example.pairs; ++i) {
    const TokenSpan pair{first + i * kKvPairTokens, first + (i + 1) * kKvPairTokens};
    if (i == example.queried) {
      in.needle = pair;
    } else {
      in.distractors.push_back(pair);
    }
  }
  in.depth = example.depth;
  return in;
}

AnswerInputSet kv_answer_inputs(const AnswerInfluenceOptions& o, const RunHeader& header) {
  AnswerInputSet set;
  const TrainConfig& config = header.config;
  set.length = checked_kv_length(o, config);
  const int length = static_cast<int>(set.length);
  set.needles = kv_pairs(length);
  std::vector<KvExample> examples = kv_influence_inputs(length, o.depths, o.per_depth, o.seed);
  for (const KvExample& ex : examples) set.inputs.push_back(kv_answer_input(ex, config.sink));
  set.exact_matches = [examples = std::move(examples), sink = config.sink](Transformer& model) {
    return kv_exact_matches(model, examples, 32, sink);
  };
  return set;
}

}  // namespace posbias
