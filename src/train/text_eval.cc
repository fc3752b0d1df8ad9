#include "posbias/train/text_eval.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "posbias/model/memory_plan.h"
#include "posbias/text/ngram_baseline.h"
#include "posbias/text/text_data.h"

namespace posbias {
namespace {

// Restores the module's training mode on scope exit.
struct EvalMode {
  explicit EvalMode(Transformer& m) : model(m), was_training(m->is_training()) { model->eval(); }
  ~EvalMode() { model->train(was_training); }
  Transformer& model;
  bool was_training;
};

torch::Tensor window_tensor(const std::vector<std::int64_t>& windows, std::int64_t first,
                            std::int64_t count, std::int64_t length) {
  const std::int64_t row = length + 1;
  return torch::from_blob(const_cast<std::int64_t*>(windows.data()) + first * row, {count, row},
                          torch::kInt64)
      .clone();
}

}  // namespace

TextEvaluation evaluate_text(Transformer& model, const std::vector<std::int64_t>& windows,
                             std::int64_t length, const std::vector<std::int32_t>& token_bytes,
                             std::int64_t batch) {
  EvalMode mode(model);
  torch::NoGradGuard no_grad;
  TextEvaluation e;
  e.windows = static_cast<std::int64_t>(windows.size()) / (length + 1);
  torch::Tensor sum = torch::zeros({length}, torch::kFloat64);
  for (std::int64_t first = 0; first < e.windows; first += batch) {
    const std::int64_t n = std::min(batch, e.windows - first);
    const torch::Tensor w = window_tensor(windows, first, n, length);
    const torch::Tensor logits = model->forward(w.slice(1, 0, length));
    const torch::Tensor nll = torch::nn::functional::cross_entropy(
        logits.reshape({n * length, -1}), w.slice(1, 1).reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
    sum += nll.reshape({n, length}).to(torch::kFloat64).sum(0);
  }
  e.tokens = e.windows * length;
  double total = 0;
  e.loss_per_position.resize(static_cast<std::size_t>(length));
  const auto acc = sum.accessor<double, 1>();
  for (std::int64_t j = 0; j < length; ++j) {
    e.loss_per_position[static_cast<std::size_t>(j)] = acc[j] / static_cast<double>(e.windows);
    total += acc[j];
  }
  e.loss = total / static_cast<double>(e.tokens);
  e.bytes = target_bytes(windows, length, token_bytes);
  e.bits_per_byte = bits_per_byte(total, e.bytes);
  return e;
}

std::map<std::string, std::vector<double>> position_gradients(
    Transformer& model, const std::vector<std::int64_t>& windows, std::int64_t length,
    const std::vector<int>& layers) {
  EvalMode mode(model);
  const std::int64_t n = static_cast<std::int64_t>(windows.size()) / (length + 1);
  const torch::Tensor w = window_tensor(windows, 0, n, length);
  const torch::Tensor x = model->embed(w.slice(1, 0, length)).detach().requires_grad_(true);
  std::vector<torch::Tensor> inputs;
  const torch::Tensor logits = model->logits(model->forward_embeddings(x, nullptr, false, &inputs));
  // Σ_w ℓ_w with ℓ_w the window's mean loss: each window's gradient as if it were alone.
  const torch::Tensor loss =
      torch::nn::functional::cross_entropy(
          logits.reshape({n * length, -1}), w.slice(1, 1).reshape({-1}),
          torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum)) /
      static_cast<double>(length);
  std::vector<torch::Tensor> wrt{x};
  std::vector<std::string> names{"embed"};
  for (int l : layers) {
    wrt.push_back(inputs.at(static_cast<std::size_t>(l)));
    names.push_back("layer_" + std::to_string(l));
  }
  const auto grads = torch::autograd::grad({loss}, wrt);
  std::map<std::string, std::vector<double>> out;
  for (std::size_t k = 0; k < grads.size(); ++k) {
    const torch::Tensor norms =
        grads[k].detach().to(torch::kFloat64).norm(2, {2}).mean(0).contiguous();  // [L]
    out[names[k]] = {norms.data_ptr<double>(), norms.data_ptr<double>() + length};
  }
  return out;
}

HeldoutSplit evaluate_heldout_split(const TrainConfig& c, Transformer& model,
                                    const TextRunData& data) {
  const auto windows = consecutive_windows(data.streams.heldout, c.length, 0);
  HeldoutSplit h;
  static_cast<TextEvaluation&>(h) =
      evaluate_text(model, windows, c.length, data.tokenizer.token_bytes());
  const NgramBaselines b =
      ngram_baselines(data.streams.train, windows, c.length, data.tokenizer.token_bytes());
  h.unigram_bits_per_byte = b.unigram_bits_per_byte;
  h.bigram_bits_per_byte = b.bigram_bits_per_byte;
  h.train_tokens = static_cast<std::int64_t>(data.streams.train.size());
  h.heldout_tokens = static_cast<std::int64_t>(data.streams.heldout.size());
  h.tokenizer = data.tokenizer.kind();
  h.vocab = data.tokenizer.vocab_size();
  return h;
}

double heldout_split_bytes(const TrainConfig& c, const TextRunData& data, AttentionPath attention) {
  const ModelConfig cfg = c.model_config();
  const double length = static_cast<double>(c.length);
  const double logits =
      2.0 * 4.0 * static_cast<double>(kTextEvalBatch) * length * static_cast<double>(cfg.vocab);
  const double windows =
      8.0 * static_cast<double>(data.streams.heldout.size()) * (length + 1) / length;
  // An unordered_map node (key, value, next pointer, allocator slack) and its bucket per pair,
  // and three float64 vectors over the vocabulary.
  const double bigram =
      48.0 * static_cast<double>(data.streams.train.size()) + 24.0 * static_cast<double>(cfg.vocab);
  return weight_bytes(cfg, /*token_embeddings=*/true) +
         forward_bytes(cfg, kTextEvalBatch, c.length, /*cached=*/false, {attention}) + logits +
         windows + bigram;
}

std::vector<int> logged_gradient_layers(int layers) {
  std::vector<int> out;
  for (int l : {1, layers / 2, layers - 1}) {
    if (l >= 1 && l < layers && (out.empty() || out.back() != l)) out.push_back(l);
  }
  return out;
}

}  // namespace posbias
