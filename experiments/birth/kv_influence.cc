#include "experiments/birth/kv_influence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>

#include "experiments/birth/birth_run.h"
#include "experiments/seeds/shares_json.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/plot.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/train_config.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

std::int64_t step_of(const std::filesystem::path& checkpoint) {
  return std::stoll(checkpoint.stem().string().substr(5));  // step_NNNNNNNN
}

double mean_of(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// The run's config, checked for a kv influence measurement at options.length.
TrainConfig checked_kv_config(const KvInfluenceOptions& o, std::int64_t* length) {
  const TrainConfig c = config_of(read_run_header(o.run));
  if (c.task != Task::kKv) {
    throw std::invalid_argument("--inputs kv needs a kv run (`posbias train --task kv`); '" +
                                o.run + "' is a " + std::string(task_name(c.task)) + " run");
  }
  *length = o.length == 0 ? c.length : o.length;
  if (*length < kKvMinLength) {
    throw std::invalid_argument(
        fmt::format("-L {}: fewer than {} kv pairs fit; give -L of at least {}", *length,
                    kKvMinPairs, kKvMinLength));
  }
  const ModelConfig m = c.model_config();
  if (m.pos == PosEncoding::kLearned && kv_input_length(*length) > m.max_positions) {
    throw std::invalid_argument(fmt::format(
        "-L {}: the model reads {} tokens but its learned position table has {}; give -L of at "
        "most {}",
        *length, kv_input_length(*length), m.max_positions, m.max_positions - kKvValueTokens + 1));
  }
  if (o.per_depth < 1) throw std::invalid_argument("--seeds (examples per depth) must be >= 1");
  if (o.depths.empty()) throw std::invalid_argument("--depths: give at least one depth");
  for (int d : o.depths) {
    if (d < 0 || d > 100)
      throw std::invalid_argument(fmt::format("--depths: {} is outside 0..100 (percent)", d));
  }
  return c;
}

// One checkpoint's per-example unit-sum profiles and exact matches, in batches of 32.
void measure_checkpoint(Transformer& model, const std::vector<KvExample>& inputs,
                        std::vector<std::vector<double>>* profiles, std::vector<bool>* exact) {
  constexpr std::size_t kBatch = 32;
  for (std::size_t begin = 0; begin < inputs.size(); begin += kBatch) {
    const std::size_t end = std::min(inputs.size(), begin + kBatch);
    const std::vector<KvExample> slice(inputs.begin() + static_cast<std::ptrdiff_t>(begin),
                                       inputs.begin() + static_cast<std::ptrdiff_t>(end));
    const torch::Tensor g = kv_answer_gradient_norms(model, encode_kv_examples(slice)).contiguous();
    const double* p = g.data_ptr<double>();
    const std::int64_t w = g.size(1);
    for (std::int64_t b = 0; b < g.size(0); ++b) {
      std::vector<double> row(p + b * w, p + (b + 1) * w);
      const double total = std::accumulate(row.begin(), row.end(), 0.0);
      if (!(total > 0) || !std::isfinite(total)) {
        throw std::runtime_error(
            fmt::format("the answer's loss gradient of example {} is {} at every position (float64 "
                        "underflow); measure an earlier checkpoint or a longer -L",
                        begin + static_cast<std::size_t>(b), total));
      }
      for (double& v : row) v /= total;
      profiles->push_back(std::move(row));
    }
  }
  *exact = kv_exact_matches(model, inputs, kBatch);
}

nlohmann::json values_json(const std::vector<double>& v) {
  return to_json(SeedValues{v, seed_interval(v)});
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

torch::Tensor kv_answer_gradient_norms(Transformer& model, const KvBatch& batch) {
  torch::AutoGradMode enable(true);
  const torch::Tensor x = model->embed(batch.ids).detach().requires_grad_(true);  // [B, W, D]
  const std::int64_t w = x.size(1);
  const torch::Tensor logits =
      model->logits(model->forward_embeddings(x).slice(1, w - kKvValueTokens, w));  // [B, 3, V]
  // Examples do not interact, so the gradient of the sum over examples of ℓ_b holds each
  // example's own gradient in its row.
  const torch::Tensor loss =
      torch::nn::functional::cross_entropy(
          logits.reshape({-1, logits.size(2)}), batch.answers.reshape({-1}),
          torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum)) /
      kKvValueTokens;
  const torch::Tensor g = torch::autograd::grad({loss}, {x})[0];
  return g.to(torch::kFloat64).norm(2, {2});  // [B, W]
}

double KvDepthInfluence::needle_mean() const { return mean_of(needle); }
double KvDepthInfluence::distractor_mean() const { return mean_of(distractor); }

KvInfluenceCheckpoint summarize_kv_influence(const std::vector<KvExample>& inputs,
                                             const std::vector<int>& depths,
                                             std::vector<std::vector<double>> example_profiles) {
  if (example_profiles.size() != inputs.size() || inputs.empty() ||
      inputs.size() % depths.size() != 0) {
    throw std::invalid_argument("summarize_kv_influence: one profile per input, depth-major");
  }
  KvInfluenceCheckpoint cp;
  const std::size_t per_depth = inputs.size() / depths.size();
  const std::size_t w = example_profiles.front().size();
  cp.profile.assign(w, 0.0);
  for (const auto& row : example_profiles) {
    for (std::size_t j = 0; j < w; ++j)
      cp.profile[j] += row[j] / static_cast<double>(inputs.size());
  }
  for (std::size_t k = 0; k < depths.size(); ++k) {
    KvDepthInfluence bin;
    bin.depth = depths[k];
    for (std::size_t e = 0; e < per_depth; ++e) {
      const std::size_t b = k * per_depth + e;
      const KvExample& ex = inputs[b];
      const std::vector<double>& row = example_profiles[b];
      const int first = ex.length() - kKvQueryTokens - ex.pairs * kKvPairTokens;
      double needle = 0, distractors = 0;
      for (int i = 0; i < ex.pairs; ++i) {
        const auto at = row.begin() + first + i * kKvPairTokens;
        const double pair = std::accumulate(at, at + kKvPairTokens, 0.0);
        (i == ex.queried ? needle : distractors) += pair;
      }
      bin.actual_depth = ex.depth;
      bin.needle.push_back(needle);
      bin.distractor.push_back(distractors / (ex.pairs - 1));
    }
    cp.depths.push_back(std::move(bin));
  }
  cp.example_profiles = std::move(example_profiles);
  return cp;
}

KvInfluenceResult measure_kv_influence(const KvInfluenceOptions& o) {
  KvInfluenceResult r;
  r.options = o;
  checked_kv_config(o, &r.length);
  r.pairs = kv_pairs(static_cast<int>(r.length));
  r.inputs = kv_influence_inputs(static_cast<int>(r.length), o.depths, o.per_depth, o.seed);
  const auto files = list_checkpoints(o.run);
  std::vector<std::int64_t> available;
  for (const auto& f : files) available.push_back(step_of(f));
  for (std::int64_t step : select_checkpoint_steps(o.checkpoints, available)) {
    const auto& path = files[static_cast<std::size_t>(
        std::find(available.begin(), available.end(), step) - available.begin())];
    std::fprintf(stderr, "birth --inputs kv: checkpoint at step %lld\n",
                 static_cast<long long>(step));
    LoadedModel loaded = load_trained_model(o.run, path);
    loaded.model->to(torch::kFloat64);
    loaded.model->eval();
    std::vector<std::vector<double>> profiles;
    std::vector<bool> exact;
    measure_checkpoint(loaded.model, r.inputs, &profiles, &exact);
    KvInfluenceCheckpoint cp = summarize_kv_influence(r.inputs, o.depths, std::move(profiles));
    cp.step = step;
    cp.path = path.string();
    cp.exact = std::move(exact);
    r.checkpoints.push_back(std::move(cp));
  }
  return r;
}

nlohmann::json to_json(const KvInfluenceResult& r) {
  const KvInfluenceOptions& o = r.options;
  nlohmann::json j{{"run", o.run},
                   {"inputs", "kv"},
                   {"target", "answer"},
                   {"length", r.length},
                   {"positions", kv_input_length(r.length)},
                   {"pairs", r.pairs},
                   {"depths", o.depths},
                   {"per_depth", o.per_depth},
                   {"seed", o.seed},
                   {"checkpoints", nlohmann::json::array()}};
  const std::size_t per_depth = static_cast<std::size_t>(o.per_depth);
  for (const KvInfluenceCheckpoint& cp : r.checkpoints) {
    const double right = static_cast<double>(std::count(cp.exact.begin(), cp.exact.end(), true));
    nlohmann::json rec{{"step", cp.step},
                       {"checkpoint", cp.path},
                       {"profile", cp.profile},
                       {"accuracy", right / static_cast<double>(cp.exact.size())},
                       {"by_depth", nlohmann::json::array()}};
    for (std::size_t k = 0; k < cp.depths.size(); ++k) {
      const KvDepthInfluence& bin = cp.depths[k];
      const auto first = cp.exact.begin() + static_cast<std::ptrdiff_t>(k * per_depth);
      const double hits = static_cast<double>(
          std::count(first, first + static_cast<std::ptrdiff_t>(per_depth), true));
      rec["by_depth"].push_back(
          {{"depth", bin.depth},
           {"actual_depth", bin.actual_depth},
           {"examples", bin.needle.size()},
           {"accuracy", hits / static_cast<double>(per_depth)},
           {"needle", values_json(bin.needle)},
           {"distractor", values_json(bin.distractor)},
           {"needle_to_distractor", bin.needle_mean() / bin.distractor_mean()}});
    }
    add_shares_json(rec, shares_over_seeds(cp.example_profiles));  // over the examples
    j["checkpoints"].push_back(std::move(rec));
  }
  return j;
}

namespace {

void render_kv_influence_figure(const KvInfluenceResult& r, const std::string& stem) {
  Panel p;
  p.title = fmt::format("share of the answer's influence on the queried pair (L = {}, {} pairs)",
                        r.length, r.pairs);
  p.xlabel = "depth of the queried pair (%)";
  p.ylabel = "checkpoint step";
  Heatmap& h = p.heatmap;
  for (int d : r.options.depths) h.x_labels.push_back(std::to_string(d));
  double top = 0;
  for (const KvInfluenceCheckpoint& cp : r.checkpoints) {
    h.y_labels.push_back(std::to_string(cp.step));
    std::vector<double> row;
    for (const KvDepthInfluence& bin : cp.depths) row.push_back(bin.needle_mean());
    top = std::max(top, *std::max_element(row.begin(), row.end()));
    h.z.push_back(std::move(row));
  }
  h.zmin = 0;
  h.zmax = top > 0 ? top : 1;
  h.z_label = "mean share on the queried pair's 6 tokens";
  h.value_format = "%.3f";
  Figure f;
  f.panels = {p};
  render_figure(f, stem + "_depths");
}

}  // namespace

KvInfluenceResult run_kv_influence(const KvInfluenceOptions& o) {
  KvInfluenceResult r = measure_kv_influence(o);
  write_output(o.json, to_json(r).dump(2) + "\n");
  if (!o.csv.empty()) {
    std::string csv = "step,depth_percent,examples,accuracy,needle_share,distractor_share\n";
    const std::size_t per_depth = static_cast<std::size_t>(o.per_depth);
    for (const KvInfluenceCheckpoint& cp : r.checkpoints) {
      for (std::size_t k = 0; k < cp.depths.size(); ++k) {
        const auto first = cp.exact.begin() + static_cast<std::ptrdiff_t>(k * per_depth);
        const auto hits = std::count(first, first + static_cast<std::ptrdiff_t>(per_depth), true);
        csv += fmt::format("{},{},{},{:.6g},{:.9g},{:.9g}\n", cp.step, cp.depths[k].depth,
                           per_depth, static_cast<double>(hits) / static_cast<double>(per_depth),
                           cp.depths[k].needle_mean(), cp.depths[k].distractor_mean());
      }
    }
    write_output(o.csv, csv);
  }
  if (!o.plot.empty()) render_kv_influence_figure(r, o.plot);
  std::fprintf(stderr, "birth --inputs kv: %zu checkpoints of %s measured on %zu inputs\n",
               r.checkpoints.size(), o.run.c_str(), r.inputs.size());
  return r;
}

}  // namespace posbias
