#include "posbias/train/hop_eval.h"

#include <algorithm>
#include <stdexcept>

#include "posbias/runfiles/hop_key.h"

namespace posbias {

std::int64_t eval_batch_size(std::int64_t length) {
  const double l = static_cast<double>(length);
  return std::max<std::int64_t>(
      1, std::min<std::int64_t>(256, static_cast<std::int64_t>(5e7 / (l * l))));
}

void for_each_batch(const DatasetSpec& spec, std::int64_t batch,
                    const std::function<void(const std::vector<Example>&)>& visit,
                    const std::vector<int>& hops) {
  if (batch < 1) throw std::invalid_argument("for_each_batch: batch must be >= 1");
  std::vector<Example> pending;
  pending.reserve(static_cast<std::size_t>(std::min<std::int64_t>(batch, spec.count)));
  for_each_example(spec, [&](const Example& ex) {
    if (!hops.empty() && std::find(hops.begin(), hops.end(), ex.hops) == hops.end()) return;
    pending.push_back(ex);
    if (static_cast<std::int64_t>(pending.size()) == batch) {
      visit(pending);
      pending.clear();
    }
  });
  if (!pending.empty()) visit(pending);
}

HopBatch encode_dataset(const DatasetSpec& spec) {
  if (spec.count < 1) throw std::invalid_argument("encode_dataset: no examples");
  const Vocabulary& vocab = Vocabulary::of(spec.task);
  HopBatch b;
  b.ids = torch::empty({spec.count, spec.length}, torch::kInt64);
  b.answers = torch::empty({spec.count}, torch::kInt64);
  auto ids = b.ids.accessor<std::int64_t, 2>();
  auto answers = b.answers.accessor<std::int64_t, 1>();
  std::int64_t r = 0;
  for_each_example(spec, [&](const Example& ex) {
    for (std::int64_t t = 0; t < spec.length; ++t) ids[r][t] = vocab.id(ex.tokens[t]);
    answers[r++] = vocab.id(ex.answer);
  });
  return b;
}

double hop_examples_bytes(std::int64_t rows, std::int64_t length) {
  const double per_token = static_cast<double>(sizeof(std::string) + sizeof(std::int64_t));
  return static_cast<double>(rows) * static_cast<double>(length) * per_token;
}

HopBatch encode_examples(const std::vector<Example>& examples, std::size_t begin, std::size_t end) {
  if (begin >= end || end > examples.size()) throw std::invalid_argument("empty example range");
  const std::int64_t rows = static_cast<std::int64_t>(end - begin);
  const std::int64_t length = examples[begin].length();
  const Vocabulary& vocab = Vocabulary::of(examples[begin].task);
  HopBatch b;
  b.ids = torch::empty({rows, length}, torch::kInt64);
  b.answers = torch::empty({rows}, torch::kInt64);
  auto ids = b.ids.accessor<std::int64_t, 2>();
  auto answers = b.answers.accessor<std::int64_t, 1>();
  for (std::int64_t r = 0; r < rows; ++r) {
    const Example& ex = examples[begin + static_cast<std::size_t>(r)];
    if (ex.length() != length || ex.task != examples[begin].task) {
      throw std::invalid_argument("a batch needs examples of one task and one length");
    }
    for (std::int64_t t = 0; t < length; ++t) ids[r][t] = vocab.id(ex.tokens[t]);
    answers[r] = vocab.id(ex.answer);
  }
  return b;
}

double HopAccuracy::hop(int h) const {
  const auto it = total.find(h);
  return it == total.end() || it->second == 0
             ? 0.0
             : static_cast<double>(correct.at(h)) / static_cast<double>(it->second);
}

double HopAccuracy::all() const {
  std::int64_t c = 0, n = 0;
  for (const auto& [h, t] : total) c += correct.at(h), n += t;
  return n == 0 ? 0.0 : static_cast<double>(c) / static_cast<double>(n);
}

double HopAccuracy::decoy_rate() const {
  std::int64_t n = 0;
  for (const auto& [h, t] : total) n += t;
  return n == 0 ? 0.0 : static_cast<double>(decoy_picks) / static_cast<double>(n);
}

double HopAccuracy::chance(int h) const {
  const auto it = total.find(h);
  return it == total.end() || it->second == 0 ? 0.0
                                              : chance_sum.at(h) / static_cast<double>(it->second);
}

double HopAccuracy::chance_all() const {
  double c = 0;
  std::int64_t n = 0;
  for (const auto& [h, t] : total) c += chance_sum.at(h), n += t;
  return n == 0 ? 0.0 : c / static_cast<double>(n);
}

std::map<std::string, double> HopAccuracy::chance_by_name() const {
  std::map<std::string, double> out;
  for (const auto& [h, n] : total) out[std::to_string(h)] = chance(h);
  out[kAllHopsKey] = chance_all();
  return out;
}

nlohmann::json HopAccuracy::chance_json() const { return chance_by_name(); }

std::map<std::string, double> HopAccuracy::by_name() const {
  std::map<std::string, double> out;
  for (const auto& [h, n] : total) out[std::to_string(h)] = hop(h);
  out[kAllHopsKey] = all();
  return out;
}

nlohmann::json HopAccuracy::to_json() const { return by_name(); }

std::vector<std::int64_t> predict_answers(Transformer& model, const std::vector<Example>& examples,
                                          std::int64_t batch) {
  std::vector<std::int64_t> out(examples.size());
  if (examples.empty()) return out;
  const bool was_training = model->is_training();
  model->eval();
  torch::NoGradGuard no_grad;
  std::size_t begin = 0;
  while (begin < examples.size()) {
    std::size_t end = begin;
    while (end < examples.size() && end - begin < static_cast<std::size_t>(batch) &&
           examples[end].length() == examples[begin].length()) {
      ++end;
    }
    const HopBatch b = encode_examples(examples, begin, end);
    const torch::Tensor predicted = model->last_logits(b.ids).argmax(-1).contiguous();
    const auto p = predicted.accessor<std::int64_t, 1>();
    for (std::size_t i = begin; i < end; ++i) out[i] = p[static_cast<std::int64_t>(i - begin)];
    begin = end;
  }
  model->train(was_training);
  return out;
}

namespace {

// Adds examples and their predicted answers to `acc`.
void score_answers(const std::vector<Example>& examples, const std::vector<std::int64_t>& predicted,
                   HopAccuracy& acc) {
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const Example& ex = examples[i];
    const Vocabulary& vocab = Vocabulary::of(ex.task);
    acc.total[ex.hops] += 1;
    acc.correct[ex.hops] += predicted[i] == vocab.id(ex.answer);
    acc.chance_sum[ex.hops] += 1.0 / std::max(1, answer_candidates(ex));
    if (!ex.decoy.empty()) acc.decoy_picks += predicted[i] == vocab.id(ex.decoy);
  }
}

}  // namespace

HopAccuracy evaluate_hops(Transformer& model, const std::vector<Example>& examples,
                          std::int64_t batch) {
  HopAccuracy acc;
  score_answers(examples, predict_answers(model, examples, batch), acc);
  return acc;
}

HopAccuracy evaluate_hops(Transformer& model, const DatasetSpec& spec, std::int64_t batch,
                          const std::vector<int>& hops) {
  HopAccuracy acc;
  for_each_batch(
      spec, batch,
      [&](const std::vector<Example>& examples) {
        score_answers(examples, predict_answers(model, examples, batch), acc);
      },
      hops);
  return acc;
}

}  // namespace posbias
