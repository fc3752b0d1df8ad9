#include "posbias/train/answer_influence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>

#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/json_result.h"
#include "posbias/core/memory.h"
#include "posbias/core/plot.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/theory/profile_shares.h"
#include "posbias/train/answer_influence_record.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/kv_answer_inputs.h"
#include "posbias/train/passkey_answer_inputs.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

double mean_of(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double span_sum(const std::vector<double>& row, TokenSpan span) {
  return std::accumulate(row.begin() + span.begin, row.begin() + span.end, 0.0);
}

void check_answer_options(const AnswerInfluenceOptions& o) {
  if (o.per_depth < 1) throw std::invalid_argument("--seeds (examples per depth) must be >= 1");
  if (o.depths.empty()) throw std::invalid_argument("--depths: give at least one depth");
  for (int d : o.depths) {
    if (d < 0 || d > 100)
      throw std::invalid_argument(fmt::format("--depths: {} is outside 0..100 (percent)", d));
  }
}

constexpr std::size_t kBatch = 32;  // inputs per forward and backward

// Refuses, before a token is drawn, a measurement this machine cannot hold: the inputs (ids and
// the task's examples, at most L + 2 ids each) and one float64 batch of kBatch through a forward
// and backward that keeps every activation (a training step's plan, at 8 bytes a value).
void require_answer_memory(const AnswerInfluenceOptions& o, const TrainConfig& c) {
  const std::int64_t length = o.length == 0 ? c.length : o.length;
  if (length < 2 || length > 10'000'000)
    throw std::invalid_argument(fmt::format("-L must be in 2..10000000 tokens, got {}", length));
  const double inputs = static_cast<double>(o.depths.size()) * o.per_depth;
  const double bytes =
      inputs * static_cast<double>(length + 2) * 8 * 3 +
      training_step_bytes(c.model_config(),
                          static_cast<std::int64_t>(std::min(static_cast<double>(kBatch), inputs)),
                          length + 2, AttentionPath::kDense, 8);
  require_memory(bytes, fmt::format("birth --inputs {} at L = {}", to_string(o.inputs), length),
                 "use a shorter -L or fewer --seeds per depth");
}

// One checkpoint's per-example unit-sum profiles, in batches of kBatch.
std::vector<std::vector<double>> measure_profiles(Transformer& model,
                                                  const std::vector<AnswerInput>& inputs) {
  std::vector<std::vector<double>> profiles;
  for (std::size_t begin = 0; begin < inputs.size(); begin += kBatch) {
    const std::size_t end = std::min(inputs.size(), begin + kBatch);
    const std::vector<AnswerInput> slice(inputs.begin() + static_cast<std::ptrdiff_t>(begin),
                                         inputs.begin() + static_cast<std::ptrdiff_t>(end));
    const torch::Tensor g = answer_gradient_norms(model, slice).contiguous();
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
      profiles.push_back(std::move(row));
    }
  }
  return profiles;
}

// A checkpoint's depth: a row of the CSV.
struct CheckpointDepth {
  std::size_t checkpoint = 0, depth = 0;
};

// One row per checkpoint and depth: its accuracy (%.6g, from the record) and the needle's and
// distractors' mean shares (%.9g; empty without distractors).
std::string answer_influence_csv(const AnswerInfluenceResult& r,
                                 const AnswerInfluenceRecord& record) {
  using C = CheckpointDepth;
  const auto at = [&r](const C& c) -> const AnswerDepthInfluence& {
    return r.checkpoints[c.checkpoint].depths[c.depth];
  };
  const std::vector<CsvColumn<C>> columns = {
      {"step", [&r](const C& c) { return std::to_string(r.checkpoints[c.checkpoint].step); }},
      {"depth_percent", [at](const C& c) { return std::to_string(at(c).depth); }},
      {"examples", [&r](const C&) { return std::to_string(r.options.per_depth); }},
      {"accuracy",
       [&record](const C& c) {
         return csv_general(record.checkpoints[c.checkpoint].by_depth[c.depth].accuracy, 6);
       }},
      {"needle_share", [at](const C& c) { return csv_general(at(c).needle_mean(), 9); }},
      {"distractor_share", [at](const C& c) { return csv_general(at(c).distractor_mean(), 9); }},
  };
  std::vector<C> rows;
  for (std::size_t c = 0; c < r.checkpoints.size(); ++c)
    for (std::size_t k = 0; k < r.checkpoints[c].depths.size(); ++k) rows.push_back({c, k});
  return csv_text(columns, rows);
}

}  // namespace

torch::Tensor answer_gradient_norms(Transformer& model, const std::vector<AnswerInput>& inputs) {
  if (inputs.empty()) throw std::invalid_argument("answer_gradient_norms: no inputs");
  const std::size_t w = inputs[0].ids.size(), t = inputs[0].answer.size();
  const int from = inputs[0].from;
  std::vector<std::int64_t> ids, answers;
  for (const AnswerInput& in : inputs) {
    if (in.ids.size() != w || in.answer.size() != t || in.from != from)
      throw std::invalid_argument("answer_gradient_norms: inputs of one width, answer and from");
    ids.insert(ids.end(), in.ids.begin(), in.ids.end());
    answers.insert(answers.end(), in.answer.begin(), in.answer.end());
  }
  const auto b = static_cast<std::int64_t>(inputs.size());
  const auto width = static_cast<std::int64_t>(w), count = static_cast<std::int64_t>(t);
  torch::AutoGradMode enable(true);
  const torch::Tensor id_tensor = torch::tensor(ids, torch::kInt64).reshape({b, width});
  const torch::Tensor answer_tensor = torch::tensor(answers, torch::kInt64).reshape({b, count});
  const torch::Tensor x = model->embed(id_tensor).detach().requires_grad_(true);  // [B, W, D]
  const torch::Tensor logits =
      model->logits(model->forward_embeddings(x).slice(1, from, from + count));  // [B, T, V]
  // Examples do not interact, so the gradient of the sum over examples of ℓ_b holds each
  // example's own gradient in its row.
  const torch::Tensor loss =
      torch::nn::functional::cross_entropy(
          logits.reshape({-1, logits.size(2)}), answer_tensor.reshape({-1}),
          torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum)) /
      static_cast<double>(count);
  const torch::Tensor g = torch::autograd::grad({loss}, {x})[0];
  return g.to(torch::kFloat64).norm(2, {2});  // [B, W]
}

double AnswerDepthInfluence::needle_mean() const { return mean_of(needle); }
double AnswerDepthInfluence::distractor_mean() const { return mean_of(distractor); }

AnswerInfluenceCheckpoint summarize_answer_influence(
    const std::vector<AnswerInput>& inputs, const std::vector<int>& depths,
    std::vector<std::vector<double>> example_profiles) {
  if (example_profiles.size() != inputs.size() || inputs.empty() ||
      inputs.size() % depths.size() != 0) {
    throw std::invalid_argument("summarize_answer_influence: one profile per input, depth-major");
  }
  AnswerInfluenceCheckpoint cp;
  const std::size_t per_depth = inputs.size() / depths.size();
  const std::size_t w = example_profiles.front().size();
  cp.profile.assign(w, 0.0);
  for (const auto& row : example_profiles) {
    for (std::size_t j = 0; j < w; ++j)
      cp.profile[j] += row[j] / static_cast<double>(inputs.size());
  }
  for (std::size_t k = 0; k < depths.size(); ++k) {
    AnswerDepthInfluence bin;
    bin.depth = depths[k];
    for (std::size_t e = 0; e < per_depth; ++e) {
      const std::size_t b = k * per_depth + e;
      const AnswerInput& in = inputs[b];
      const std::vector<double>& row = example_profiles[b];
      bin.actual_depth = in.depth;
      bin.needle.push_back(span_sum(row, in.needle));
      if (in.distractors.empty()) continue;
      double distractors = 0;
      for (TokenSpan span : in.distractors) distractors += span_sum(row, span);
      bin.distractor.push_back(distractors / static_cast<double>(in.distractors.size()));
    }
    cp.depths.push_back(std::move(bin));
  }
  cp.example_profiles = std::move(example_profiles);
  return cp;
}

AnswerInfluenceResult measure_answer_influence(const AnswerInfluenceOptions& o) {
  check_answer_options(o);
  const RunHeader header = read_run_header(o.run);
  require_answer_memory(o, header.config);
  AnswerInputSet set = o.inputs == AnswerInputs::kKv ? kv_answer_inputs(o, header)
                                                     : passkey_answer_inputs(o, header);
  AnswerInfluenceResult r;
  r.options = o;
  r.length = set.length;
  r.needles = set.needles;
  r.inputs = std::move(set.inputs);
  for (const auto& [step, path] : select_checkpoints(o.run, o.checkpoints)) {
    std::fprintf(stderr, "birth --inputs %s: checkpoint at step %lld\n",
                 to_string(o.inputs).c_str(), static_cast<long long>(step));
    LoadedModel loaded = load_trained_model(o.run, path);
    loaded.model->to(torch::kFloat64);
    loaded.model->eval();
    AnswerInfluenceCheckpoint cp =
        summarize_answer_influence(r.inputs, o.depths, measure_profiles(loaded.model, r.inputs));
    cp.step = step;
    cp.path = path.string();
    cp.exact = set.exact_matches(loaded.model);
    r.checkpoints.push_back(std::move(cp));
  }
  return r;
}

namespace {

// The share of exact matches among per_depth examples of depth bin k.
double bin_accuracy(const AnswerInfluenceCheckpoint& cp, std::size_t k, std::size_t per_depth) {
  const auto first = cp.exact.begin() + static_cast<std::ptrdiff_t>(k * per_depth);
  const double hits =
      static_cast<double>(std::count(first, first + static_cast<std::ptrdiff_t>(per_depth), true));
  return hits / static_cast<double>(per_depth);
}

SeedStatistic over_examples(const std::vector<double>& v) { return {v, seed_interval(v)}; }

}  // namespace

AnswerInfluenceRecord answer_influence_record(const AnswerInfluenceResult& r) {
  const AnswerInfluenceOptions& o = r.options;
  AnswerInfluenceRecord out;
  out.run = o.run;
  out.inputs = o.inputs;
  out.target = "answer";
  out.length = r.length;
  out.positions = r.inputs.empty() ? 0 : static_cast<std::int64_t>(r.inputs.front().ids.size());
  (o.inputs == AnswerInputs::kKv ? out.pairs : out.needles) = r.needles;
  out.depths = o.depths;
  out.per_depth = o.per_depth;
  out.seed = o.seed;
  const auto per_depth = static_cast<std::size_t>(o.per_depth);
  for (const AnswerInfluenceCheckpoint& cp : r.checkpoints) {
    AnswerCheckpointRecord& c = out.checkpoints.emplace_back();
    c.step = cp.step;
    c.checkpoint = cp.path;
    c.profile = cp.profile;
    c.accuracy = static_cast<double>(std::count(cp.exact.begin(), cp.exact.end(), true)) /
                 static_cast<double>(cp.exact.size());
    for (std::size_t k = 0; k < cp.depths.size(); ++k) {
      const AnswerDepthInfluence& bin = cp.depths[k];
      c.by_depth.push_back(
          {bin.depth, bin.actual_depth, static_cast<std::int64_t>(bin.needle.size()),
           bin_accuracy(cp, k, per_depth), over_examples(bin.needle), over_examples(bin.distractor),
           bin.needle_mean() / bin.distractor_mean()});
    }
    c.profile_shares = profile_shares_record(shares_over_seeds(cp.example_profiles));
  }
  return out;
}

void render_answer_influence_figure(const AnswerInfluenceRecord& r, const std::string& stem) {
  const std::string word = needle_word(r.inputs);
  const std::int64_t needles =
      r.inputs == AnswerInputs::kKv ? r.pairs.value_or(0) : r.needles.value_or(0);
  Panel p;
  p.title = fmt::format("share of the answer's influence on the queried {} (L = {}, {} {}{})", word,
                        r.length, needles, word, needles == 1 ? "" : "s");
  p.xlabel = "depth of the queried " + word + " (%)";
  p.ylabel = "checkpoint step";
  Heatmap& h = p.heatmap;
  for (int d : r.depths) h.x_labels.push_back(std::to_string(d));
  double top = 0;
  for (const AnswerCheckpointRecord& cp : r.checkpoints) {
    h.y_labels.push_back(std::to_string(cp.step));
    std::vector<double> row;
    for (const AnswerDepthRecord& bin : cp.by_depth) row.push_back(bin.needle.interval.mean);
    top = std::max(top, *std::max_element(row.begin(), row.end()));
    h.z.push_back(std::move(row));
  }
  h.zmin = 0;
  h.zmax = top > 0 ? top : 1;
  h.z_label = r.inputs == AnswerInputs::kKv ? "mean share on the queried pair's 6 tokens"
                                            : "mean share on the queried needle's tokens";
  h.value_format = "%.3f";
  Figure f;
  f.panels = {p};
  render_figure(f, stem + "_depths");
}

AnswerInfluenceResult run_answer_influence(const AnswerInfluenceOptions& o) {
  AnswerInfluenceResult r = measure_answer_influence(o);
  // Without --json on a terminal: how to get the JSON, not the JSON (core/json_result.h).
  const AnswerInfluenceRecord record = answer_influence_record(r);
  write_json_result(o.json, to_json(record).dump(2) + "\n", [] { return std::string(); });
  if (!o.csv.empty()) write_output(o.csv, answer_influence_csv(r, record));
  if (!o.plot.empty()) render_answer_influence_figure(record, o.plot);
  std::fprintf(stderr, "birth --inputs %s: %zu checkpoints of %s measured on %zu inputs\n",
               to_string(o.inputs).c_str(), r.checkpoints.size(), o.run.c_str(), r.inputs.size());
  return r;
}

}  // namespace posbias
