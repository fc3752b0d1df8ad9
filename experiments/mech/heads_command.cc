#include "experiments/mech/heads_command.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <utility>

#include "posbias/core/atomic_file.h"
#include "posbias/core/json_read.h"
#include "posbias/core/json_result.h"
#include "posbias/core/memory.h"
#include "posbias/core/progress.h"
#include "posbias/hf/hf_config.h"
#include "posbias/hf/text_file.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/head_scores.h"
#include "posbias/model/hf_weights.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"

namespace posbias {
namespace {

// A row's name: the head's, or its layer's where every layer has one head.
std::string row_name(const HeadScore& h, bool with_head) {
  return with_head ? head_name(h.layer, h.head) : layer_name(h.layer);
}

// The plan of scoring (head_scoring_bytes): dense attention unless that passes the budget;
// refused in one line before the samples are made.
AttentionPath plan_scoring(const ModelConfig& cfg, std::int64_t samples, std::int64_t length,
                           const HeadsOptions& o) {
  return plan_attention(
      [&](AttentionPath a) { return head_scoring_bytes(cfg, samples, length, a); }, o.attention,
      o.memory_budget_gb,
      "heads on " + std::to_string(samples) + " samples of length " + std::to_string(length),
      "a smaller --length or --samples");
}

// Samples of a run: held-out examples of its task, hops and length (the training length unless
// --length), planned, then encoded as they are generated ([samples, length] ids).
torch::Tensor run_samples(const TrainConfig& c, const HeadsOptions& o, AttentionPath* path) {
  const int length = o.length > 0 ? static_cast<int>(o.length) : c.length;
  validate_model_length(c.task, length);
  *path = plan_scoring(c.model_config(), o.samples, length, o);
  return encode_dataset({c.task, c.hops, length, o.samples, o.seed}).ids;
}

// Samples of a Hugging Face model: uniform random ids, or the first --samples rows of --tokens
// or --text cut to --length (default: the first token row's length, the shortest text line's);
// planned before the [samples, length] tensor is made.
torch::Tensor token_samples(const HeadsOptions& o, const ModelConfig& cfg, AttentionPath* path) {
  auto check_positions = [&](std::int64_t len) {
    if (cfg.position_limit() && len > *cfg.position_limit()) {
      throw std::invalid_argument("--length " + std::to_string(len) + " exceeds the model's " +
                                  std::to_string(cfg.max_positions) + " positions");
    }
  };
  const CheckpointInputFiles files{o.tokens, o.text, o.tokenizer};
  if (files.empty()) {
    const std::int64_t len = o.length > 0 ? o.length : 128;
    check_positions(len);
    *path = plan_scoring(cfg, o.samples, len, o);
    auto gen = at::detail::createCPUGenerator(o.seed + 0x5eedULL);
    return at::randint(cfg.vocab, {o.samples, len}, gen);
  }
  auto rows = files.read(o.config, cfg.vocab, cfg.max_positions);
  if (static_cast<std::int64_t>(rows.size()) > o.samples)
    rows.resize(static_cast<std::size_t>(o.samples));
  std::size_t len = o.length > 0 ? static_cast<std::size_t>(o.length) : rows[0].size();
  if (o.length == 0 && !o.text.empty()) {
    for (const auto& row : rows) len = std::min(len, row.size());
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() < len) {
      throw std::runtime_error((o.text.empty() ? o.tokens : o.text) + ": sequence " +
                               std::to_string(r + 1) + " has " + std::to_string(rows[r].size()) +
                               " ids, fewer than the length " + std::to_string(len) +
                               " (set --length)");
    }
  }
  const auto n = static_cast<std::int64_t>(rows.size()), l = static_cast<std::int64_t>(len);
  check_positions(l);
  *path = plan_scoring(cfg, n, l, o);
  torch::Tensor ids = torch::empty({n, l}, torch::kInt64);  // [samples, length]
  auto a = ids.accessor<std::int64_t, 2>();
  for (std::int64_t r = 0; r < n; ++r) {
    const std::vector<std::int64_t>& row = rows[static_cast<std::size_t>(r)];
    for (std::int64_t t = 0; t < l; ++t) a[r][t] = row[static_cast<std::size_t>(t)];
  }
  return ids;
}

void check_options(const HeadsOptions& o) {
  const bool run = !o.run.empty(), hf = !o.weights.empty() || !o.config.empty();
  if (run == hf) throw std::invalid_argument("give either --run RUN_DIR or --config and --weights");
  if (hf && (o.config.empty() || o.weights.empty()))
    throw std::invalid_argument("--config and --weights go together");
  const CheckpointInputFiles files{o.tokens, o.text, o.tokenizer};
  files.validate();
  if (run && !files.empty())
    throw std::invalid_argument("--run scores the run's own task: no --tokens or --text");
  if (o.samples < 1 || o.samples > 100000)
    throw std::invalid_argument("--samples must be in 1..100000, got " + std::to_string(o.samples));
  if (o.length != 0 && (o.length < 3 || o.length > 65536))
    throw std::invalid_argument("--length must be in 3..65536, got " + std::to_string(o.length));
  if (!(o.tau > 0) || !std::isfinite(o.tau))
    throw std::invalid_argument("--tau must be a positive number");
  if (!(o.qk_scale > 0) || o.qk_scale > 1e6)
    throw std::invalid_argument("--qk-scale must be in (0, 1e6]");
  if (o.at_init && !run)
    throw std::invalid_argument("--at-init re-makes a run's model: give --run");
}

}  // namespace

std::vector<std::string> HeadsResult::final_heads(HeadLabel label, bool with_head,
                                                  double threshold) const {
  std::vector<std::string> out;
  if (checkpoints.empty()) return out;
  for (const HeadScore& h : checkpoints.back().heads) {
    if (head_label(h.positional, h.symbolic, h.gap, h.self, threshold) == label)
      out.push_back(row_name(h, with_head));
  }
  return out;
}

HeadsResult measure_heads(const HeadsOptions& o, ProcessGroup* group) {
  check_options(o);
  const auto t0 = std::chrono::steady_clock::now();
  HeadsResult result;
  result.samples = o.samples;
  result.tau = o.tau;
  result.at_init = o.at_init;
  result.qk_scale = o.qk_scale;
  if (!o.run.empty()) {
    std::vector<RunCheckpoint> files;
    try {
      files = select_checkpoints(o.run, o.checkpoints);
    } catch (const std::runtime_error& e) {  // none at all
      throw std::runtime_error("run '" + o.run + "': " + e.what());
    }
    if (o.at_init) files = {files.front()};  // read for its config; the weights are re-made
    result.run = o.run;
    // Sharded: checkpoint i on rank i mod world size; every rank gathers all of them.
    const std::size_t rank = group ? static_cast<std::size_t>(group->rank()) : 0,
                      ranks = group ? static_cast<std::size_t>(group->size()) : 1;
    Progress progress("heads",
                      static_cast<std::int64_t>((files.size() + ranks - 1 - rank) / ranks));
    torch::Tensor ids;
    std::int64_t done = 0;
    for (std::size_t i = rank; i < files.size(); i += ranks) {
      LoadedModel m = load_trained_model(o.run, files[i].path);
      if (o.at_init) m.model->init_weights(m.info.config.seed), m.info.step = 0;
      if (o.qk_scale != 1) scale_query_key(m.model, o.qk_scale);
      if (!ids.defined()) {
        require_hop_task(m.info.config.task, "heads --run");
        ids = run_samples(m.info.config, o, &result.attention);
        result.task = m.info.config.task;
      }
      m.model->set_attention(result.attention);
      result.checkpoints.push_back({m.info.step,
                                    o.at_init ? "init" : files[i].path.filename().string(),
                                    score_heads(m.model, ids, o.tau)});
      progress.update(++done);
    }
    progress.finish();
    if (group) {
      // Each rank's share as a heads record (its checkpoints, and the run's task, attention
      // path and sample length), written and read through the record's field table.
      HeadsRecord mine;
      mine.task = result.task;
      mine.attention = result.attention;
      mine.length = ids.defined() ? ids.size(1) : 0;
      mine.checkpoints = result.checkpoints;
      std::vector<HeadsRecord> parts;
      for (const std::string& text : group->all_gather(to_json(mine).dump()))
        parts.push_back(heads_record_from_json(parse_json(text, "a rank's head scores")));
      result.checkpoints.clear();
      for (std::size_t i = 0; i < files.size(); ++i)  // back in training order
        result.checkpoints.push_back(parts[i % ranks].checkpoints[i / ranks]);
      result.task = parts.front().task;  // rank 0 scored the first checkpoint
      result.attention = parts.front().attention.value();
      result.length = parts.front().length;
      result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return result;
    }
    result.length = ids.size(1);
  } else {
    const ModelConfig cfg = model_config_from_hf(read_hf_config(o.config));
    const auto ids = token_samples(o, cfg, &result.attention);
    Transformer model(cfg);
    model->set_attention(result.attention);
    load_model_weights(model, o.weights);
    if (o.qk_scale != 1) scale_query_key(model, o.qk_scale);
    result.config = o.config;
    result.weights = o.weights;
    result.tokens = o.tokens;
    result.text = o.text;
    result.length = ids.size(1);
    result.checkpoints.push_back({std::nullopt, o.weights, score_heads(model, ids, o.tau)});
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

HeadsRecord heads_record(const HeadsResult& r) {
  HeadsRecord j;
  j.samples = r.samples;
  j.tau = r.tau;
  j.at_init = r.at_init;
  j.qk_scale = r.qk_scale;
  j.attention = r.attention;
  if (!r.run.empty()) {
    j.source.run = r.run;
    j.task = r.task;
  } else {
    j.source = {std::nullopt, r.config, r.weights, r.tokens};
    if (!r.text.empty()) j.source.text = r.text;
  }
  j.length = r.length;
  j.checkpoints = r.checkpoints;
  auto final_heads = [&](double threshold) {
    return FinalHeads{r.final_heads(HeadLabel::kPositional, true, threshold),
                      r.final_heads(HeadLabel::kSymbolic, true, threshold),
                      r.final_heads(HeadLabel::kReflexive, true, threshold)};
  };
  j.final = final_heads(kPureThreshold);
  j.label_threshold = kPureThreshold;
  // The labels are a view: how they move with the purity threshold.
  j.threshold_sensitivity.emplace();
  for (double t : kLabelThresholds) {
    ThresholdLabels& labels = j.threshold_sensitivity->emplace_back();
    labels.threshold = t;
    labels.final = final_heads(t);
    for (const CheckpointHeads& c : r.checkpoints) {
      PureCounts& counts = labels.pure_counts.emplace_back();
      counts.step = c.step;
      for (const HeadScore& h : c.heads) {
        const HeadLabel label = head_label(h.positional, h.symbolic, h.gap, h.self, t);
        counts.positional += label == HeadLabel::kPositional ? 1 : 0;
        counts.symbolic += label == HeadLabel::kSymbolic ? 1 : 0;
        counts.reflexive += label == HeadLabel::kReflexive ? 1 : 0;
      }
    }
  }
  j.seconds = r.seconds;
  if (r.causal) add_causal_results(*r.causal, j);
  return j;
}

nlohmann::json to_json(const HeadsResult& r) { return to_json(heads_record(r)); }

HeadsResult run_heads(const HeadsOptions& o) {
  const bool causal = o.causal.ablate || o.causal.patch;
  std::unique_ptr<ProcessGroup> group;
  if (o.ranks) {
    if (o.run.empty())
      throw std::invalid_argument("heads splits a run's checkpoints over ranks: give --run");
    if (causal) throw std::invalid_argument("--ablate and --patch run in one process, not ranks");
    group = std::make_unique<ProcessGroup>(
        *o.ranks, std::chrono::seconds(o.rank_timeout),
        fmt::format("heads {} {} {} {} {} {} {} {} {}", o.run, to_string(o.checkpoints), o.length,
                    o.samples, o.seed, o.tau, o.memory_budget_gb, o.at_init, o.qk_scale));
  }
  if (!o.causal.ablate && o.causal.spans) throw std::invalid_argument("--spans goes with --ablate");
  if (!causal && !o.causal.layers.empty())
    throw std::invalid_argument("--layers goes with --ablate or --patch");
  if (causal && o.run.empty())
    throw std::invalid_argument("--ablate and --patch measure a hop run: give --run");
  // First, so that a bad layer or length is refused before the scores' pass over checkpoints.
  std::optional<CausalResult> tests;
  if (causal) tests = measure_causal(o.run, o.causal, o.attention, o.memory_budget_gb);
  HeadsResult result = measure_heads(o, group.get());
  result.causal = std::move(tests);
  if (group && group->rank() != 0) {  // rank 0 writes
    group->barrier();
    return result;
  }
  // Without --json on a terminal: a summary and how to get the JSON (core/json_result.h).
  const HeadsRecord record = heads_record(result);
  write_json_result(o.json, to_json(record).dump(2) + "\n",
                    [&record] { return heads_summary(record); });
  if (!o.plot.empty()) render_heads_figures(record, o.plot);
  if (group) group->barrier();
  return result;
}

void render_heads_figures(const HeadsRecord& record, const std::string& plot) {
  const std::string title =
      record.task ? std::string(task_name(*record.task)) + " run" : std::string("model");
  const std::string stem = std::filesystem::path(plot).replace_extension().string();
  render_figure(heads_figure(record.checkpoints, title), plot);
  if (record.checkpoints.size() > 1)
    render_figure(head_scores_over_training_figure(record.checkpoints, title), stem + "_scores");
  if (record.ablation) {
    if (!record.task) throw std::invalid_argument("an ablation result names no task");
    render_figure(ablation_figure(*record.ablation, *record.task), stem + "_ablation");
  }
  if (record.patching) render_figure(patching_figure(*record.patching), stem + "_patching");
}

void redraw_heads(const std::string& file, const std::string& plot) {
  HeadsRecord record;
  try {
    record = heads_record_from_json(read_result_json(file));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file + ": " + e.what() + " (is it a heads --json result?)");
  }
  render_heads_figures(record, plot);
}

Figure heads_figure(const std::vector<CheckpointHeads>& checkpoints, const std::string& title) {
  if (checkpoints.empty()) throw std::invalid_argument("heads_figure: no checkpoints");
  const std::vector<HeadScore>& first = checkpoints.front().heads;
  const bool multi_head = first.size() > 1 && first.back().head > 0;
  Figure f;
  const std::pair<const char*, double HeadScore::*> scores[] = {
      {"positional", &HeadScore::positional}, {"symbolic", &HeadScore::symbolic}};
  for (const auto& [score, mean] : scores) {
    Panel p;
    p.title = title + ": " + score + " score";
    p.xlabel = "checkpoint (training step)";
    p.ylabel = "layer";
    Heatmap& h = p.heatmap;
    h.z_label = std::string(score) + " score";
    for (const HeadScore& head : first) h.y_labels.push_back(row_name(head, multi_head));
    h.z.assign(first.size(), {});
    for (const CheckpointHeads& c : checkpoints) {
      h.x_labels.push_back(c.step ? std::to_string(*c.step) : std::string("final"));
      for (std::size_t r = 0; r < first.size() && r < c.heads.size(); ++r)
        h.z[r].push_back(c.heads[r].*mean);
    }
    f.panels.push_back(std::move(p));
  }
  f.width = 1100;
  f.height = std::max(420, 28 * static_cast<int>(first.size()) + 140);
  return f;
}

Figure head_scores_over_training_figure(const std::vector<CheckpointHeads>& checkpoints,
                                        const std::string& title) {
  if (checkpoints.empty()) throw std::invalid_argument("heads figure: no checkpoints");
  const std::vector<HeadScore>& first = checkpoints.front().heads;
  const bool multi_head = first.size() > 1 && first.back().head > 0;
  Figure f;
  for (const bool positional : {true, false}) {
    Panel p;
    p.title = title + ": " + (positional ? "positional" : "symbolic") +
              " score per layer (95% interval over samples)";
    p.xlabel = "training step";
    p.ylabel = positional ? "positional score" : "symbolic score";
    p.ymin = -0.05;
    p.ymax = 1.05;
    // One line per head in the colour map by layer (heads of a layer in turn): a dozen named
    // lines would repeat colours. Past four heads the bands hide one another: lines only, the
    // intervals stay in the JSON.
    p.order_label = multi_head ? "head, layer by layer (0 = L0.h0)" : "layer";
    const bool bands = first.size() <= 4;
    if (!bands)
      p.title = title + ": " + (positional ? "positional" : "symbolic") + " score per layer";
    for (std::size_t r = 0; r < first.size(); ++r) {
      Series s;
      s.title = row_name(first[r], multi_head);
      s.order = static_cast<double>(r);
      s.line_width = 1;
      for (const CheckpointHeads& c : checkpoints) {
        if (!c.step || r >= c.heads.size()) continue;
        const HeadScore& h = c.heads[r];
        s.x.push_back(static_cast<double>(*c.step));
        s.y.push_back(positional ? h.positional : h.symbolic);
        const double lo = positional ? h.positional_low : h.symbolic_low;
        const double hi = positional ? h.positional_high : h.symbolic_high;
        if (!bands) continue;
        s.y_low.push_back(std::isnan(lo) ? s.y.back() : lo);
        s.y_high.push_back(std::isnan(hi) ? s.y.back() : hi);
      }
      p.series.push_back(std::move(s));
    }
    Series threshold;
    threshold.title = "purity threshold";
    threshold.line_width = 1;
    for (const CheckpointHeads& c : checkpoints) {
      if (!c.step) continue;
      threshold.x.push_back(static_cast<double>(*c.step));
      threshold.y.push_back(kPureThreshold);
    }
    p.series.push_back(std::move(threshold));
    f.panels.push_back(std::move(p));
  }
  f.width = 1400;
  f.height = 560;
  return f;
}

}  // namespace posbias
