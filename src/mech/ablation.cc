#include "posbias/mech/ablation.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "posbias/tasks/vocab.h"

namespace posbias {
namespace {

// Clears every layer's z_hook when it goes out of scope, whatever happened in between.
class HookScope {
 public:
  explicit HookScope(Transformer& model) : model_(model) { clear(); }
  ~HookScope() { clear(); }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;
  void clear() {
    for (Block& b : model_->layers) b->attn->z_hook = nullptr;
  }

 private:
  Transformer& model_;
};

// The mean of every layer's z over the examples of `spec` at each position, [L, H·E] per
// layer, and the model's accuracy on them (one unablated pass).
std::vector<torch::Tensor> mean_outputs(Transformer& model, const DatasetSpec& spec,
                                        std::int64_t batch, HopAccuracy* baseline) {
  HookScope scope(model);
  const std::size_t n = model->layers.size();
  std::vector<torch::Tensor> sums(n);
  std::int64_t rows = 0;
  for (std::size_t l = 0; l < n; ++l) {
    model->layers[l]->attn->z_hook = [&sums, l](const torch::Tensor& z) {
      const torch::Tensor s = z.to(torch::kFloat64).sum(0);
      sums[l] = sums[l].defined() ? sums[l] + s : s;
      return z;
    };
  }
  for_each_batch(spec, batch, [&](const std::vector<Example>& examples) {
    rows += static_cast<std::int64_t>(examples.size());
    const HopAccuracy acc = evaluate_hops(model, examples, batch);
    for (const auto& [h, t] : acc.total) {
      baseline->total[h] += t;
      baseline->correct[h] += acc.correct.at(h);
      baseline->chance_sum[h] += acc.chance_sum.at(h);
    }
  });
  std::vector<torch::Tensor> means(n);
  for (std::size_t l = 0; l < n; ++l) means[l] = (sums[l] / static_cast<double>(rows));
  return means;
}

// Layer l's z replaced by its mean at every position (until the HookScope ends).
void ablate(Transformer& model, int l, const std::vector<torch::Tensor>& means) {
  const torch::Tensor mean = means[static_cast<std::size_t>(l)];
  model->layers[static_cast<std::size_t>(l)]->attn->z_hook = [mean](const torch::Tensor& z) {
    return mean.to(z.scalar_type()).unsqueeze(0).expand_as(z);
  };
}

// Example `ex` (Number, 1 hop, standard) with the query's jump moved to another letter of the
// block, `shift` (1..7) letters on, cyclically: only the last token and the answer change.
Example corrupted(const Example& ex, int shift) {
  Example c = ex;
  const int query = ex.length() - 1, target = ex.chain.back();  // letters sit at 0..7
  const int other = (target + shift) % 8;
  c.tokens.back() = std::to_string(query - other);
  c.chain = {other};
  c.answer = ex.tokens[static_cast<std::size_t>(other)];
  return c;
}

}  // namespace

std::vector<int> causal_layers(const Transformer& model, const AblationSpec& spec) {
  const int n = static_cast<int>(model->layers.size());
  if (n == 0) throw std::invalid_argument("the model has no attention layer to ablate");
  if (spec.lengths.empty()) throw std::invalid_argument("ablation needs at least one length");
  if (spec.hops.empty()) throw std::invalid_argument("ablation needs at least one hop count");
  if (spec.count < 1 || spec.count > 100000)
    throw std::invalid_argument(
        fmt::format("--causal-count must be in 1..100000, got {}", spec.count));
  std::vector<int> layers = spec.layers;
  if (layers.empty()) {
    for (int l = 0; l < n; ++l) layers.push_back(l);
  }
  for (int l : layers) {
    if (l < 0 || l >= n) {
      throw std::invalid_argument(
          fmt::format("layer {} is not in the model: its layers are 0..{}", l, n - 1));
    }
  }
  for (int length : spec.lengths) {
    validate_model_length(spec.task, length);
    for (int h : spec.hops) validate_spec(spec.task, h, length, Variant::kStandard);
    const ModelConfig& cfg = model->config();
    if (const auto limit = cfg.position_limit(); limit && length > *limit) {
      throw std::invalid_argument(fmt::format("length {} is past the model's {} learned positions",
                                              length, cfg.max_positions));
    }
  }
  return layers;
}

AblationResult mean_ablate_layers(Transformer& model, const AblationSpec& spec,
                                  const CellProgress& progress) {
  AblationResult r;
  r.layers = causal_layers(model, spec);
  r.lengths = spec.lengths;
  r.ablated.assign(r.layers.size(), {});
  const bool joint = spec.layers.size() >= 2;
  const int n = static_cast<int>(model->layers.size());
  if (spec.spans) {
    for (int k = 0; k + 1 < n; ++k) r.spans.push_back({0, k, {}});
    for (int k = 1; k < n; ++k) r.spans.push_back({k, n - 1, {}});
  }
  const auto cells = static_cast<std::int64_t>(
      spec.lengths.size() * (r.layers.size() + (joint ? 2 : 1) + r.spans.size()));
  std::int64_t done = 0;
  for (int length : spec.lengths) {
    const DatasetSpec data = per_hop_spec(spec.task, spec.hops, length, spec.count, spec.seed);
    const std::int64_t batch = eval_batch_size(length);
    HopAccuracy baseline;
    const std::vector<torch::Tensor> means = mean_outputs(model, data, batch, &baseline);
    r.baseline.push_back(baseline);
    if (progress) progress(++done, cells);
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
      HookScope scope(model);
      ablate(model, r.layers[i], means);
      r.ablated[i].push_back(evaluate_hops(model, data, batch));
      if (progress) progress(++done, cells);
    }
    if (joint) {
      HookScope scope(model);
      for (int l : r.layers) ablate(model, l, means);
      r.joint.push_back(evaluate_hops(model, data, batch));
      if (progress) progress(++done, cells);
    }
    for (AblatedSpan& span : r.spans) {
      HookScope scope(model);
      for (int l = span.first; l <= span.last; ++l) ablate(model, l, means);
      span.accuracy.push_back(evaluate_hops(model, data, batch));
      if (progress) progress(++done, cells);
    }
  }
  return r;
}

PatchingResult patch_layers(Transformer& model, const AblationSpec& spec,
                            const CellProgress& progress) {
  if (spec.task != Task::kNumber)
    throw std::invalid_argument("patching pairs Number inputs: the run's task is not number");
  AblationSpec one = spec;
  one.hops = {1};
  PatchingResult r;
  r.layers = causal_layers(model, one);
  r.lengths = spec.lengths;
  r.pairs = spec.count;
  r.moved.assign(r.layers.size(), {});
  r.kept.assign(r.layers.size(), {});
  const Vocabulary& vocab = Vocabulary::of(Task::kNumber);
  const bool was_training = model->is_training();
  model->eval();
  torch::NoGradGuard no_grad;
  for (int length : spec.lengths) {
    std::vector<Example> clean, bad;
    for_each_example(per_hop_spec(Task::kNumber, {1}, length, spec.count, spec.seed),
                     [&](const Example& ex) {
                       clean.push_back(ex);
                       bad.push_back(corrupted(ex, 1 + static_cast<int>(clean.size() % 7)));
                     });
    const std::int64_t batch = eval_batch_size(length);
    std::int64_t clean_right = 0, bad_right = 0;
    std::vector<std::int64_t> moved(r.layers.size(), 0), kept(r.layers.size(), 0);
    for (std::size_t begin = 0; begin < clean.size(); begin += static_cast<std::size_t>(batch)) {
      const std::size_t end = std::min(clean.size(), begin + static_cast<std::size_t>(batch));
      const torch::Tensor clean_ids = encode_examples(clean, begin, end).ids;
      const torch::Tensor bad_ids = encode_examples(bad, begin, end).ids;
      std::vector<torch::Tensor> bad_z(model->layers.size());
      torch::Tensor clean_pred, bad_pred;
      {
        HookScope scope(model);
        for (std::size_t l = 0; l < model->layers.size(); ++l) {
          model->layers[l]->attn->z_hook = [&bad_z, l](const torch::Tensor& z) {
            bad_z[l] = z;
            return z;
          };
        }
        bad_pred = model->last_logits(bad_ids).argmax(-1);
      }
      clean_pred = model->last_logits(clean_ids).argmax(-1);
      auto count = [&](const torch::Tensor& pred, const std::vector<Example>& ex) {
        std::int64_t n = 0;
        const auto p = pred.accessor<std::int64_t, 1>();
        for (std::size_t i = begin; i < end; ++i)
          n += p[static_cast<std::int64_t>(i - begin)] == vocab.id(ex[i].answer);
        return n;
      };
      clean_right += count(clean_pred, clean);
      bad_right += count(bad_pred, bad);
      for (std::size_t i = 0; i < r.layers.size(); ++i) {
        HookScope scope(model);
        const torch::Tensor source = bad_z[static_cast<std::size_t>(r.layers[i])];
        model->layers[static_cast<std::size_t>(r.layers[i])]->attn->z_hook =
            [source](const torch::Tensor&) { return source; };
        const torch::Tensor pred = model->last_logits(clean_ids).argmax(-1);
        moved[i] += count(pred, bad);
        kept[i] += count(pred, clean);
      }
    }
    const auto pairs = static_cast<double>(clean.size());
    r.clean_accuracy.push_back(static_cast<double>(clean_right) / pairs);
    r.corrupted_accuracy.push_back(static_cast<double>(bad_right) / pairs);
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
      r.moved[i].push_back(static_cast<double>(moved[i]) / pairs);
      r.kept[i].push_back(static_cast<double>(kept[i]) / pairs);
    }
    if (progress)
      progress(static_cast<std::int64_t>(r.clean_accuracy.size()),
               static_cast<std::int64_t>(spec.lengths.size()));
  }
  model->train(was_training);
  return r;
}

}  // namespace posbias
