#include "experiments/mech/ablation_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>

#include "posbias/core/progress.h"
#include "posbias/mech/head_name.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/stats/wilson.h"
#include "posbias/tasks/vocab.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

CausalResult measure_causal(const std::string& run, const CausalOptions& o,
                            std::optional<AttentionPath> attention, double memory_budget_gb) {
  if (run.empty()) throw std::invalid_argument("--ablate and --patch measure a run: give --run");
  if (!std::filesystem::is_directory(run))
    throw std::invalid_argument("run '" + run + "' is not a directory");
  const std::vector<std::filesystem::path> files = list_checkpoints(run);
  if (files.empty()) {
    throw std::invalid_argument("run '" + run +
                                "' has no checkpoints: --ablate and --patch need a trained model");
  }
  LoadedModel m = load_trained_model(run, files.back());
  const TrainConfig& c = m.info.config;
  require_hop_task(c.task, "heads --ablate and --patch");
  CausalResult r;
  r.checkpoint = files.back().filename().string();
  r.step = m.info.step;
  r.task = c.task;
  r.spec.task = c.task;
  r.spec.hops = c.hops;
  r.spec.lengths = o.lengths;
  r.spec.count = o.count;
  r.spec.seed = o.seed;
  r.spec.layers = o.layers;
  r.spec.spans = o.spans;
  if (o.patch && c.task != Task::kNumber) {
    throw std::invalid_argument(
        "--patch pairs Number inputs that differ in one integer; this run's task is " +
        std::string(task_name(c.task)));
  }
  causal_layers(m.model, r.spec);  // before the plan: bad lengths or layers are refused first
  const std::int64_t longest = *std::max_element(o.lengths.begin(), o.lengths.end());
  // One eval batch's forward at the longest length, the weights and the per-layer means.
  auto bytes = [&](AttentionPath a) {
    const ModelConfig cfg = c.model_config();
    return weight_bytes(cfg, true) + hop_examples_bytes(eval_batch_size(longest), longest) +
           forward_bytes(cfg, eval_batch_size(longest), longest, /*cached=*/false, {a}) +
           8.0 * static_cast<double>(cfg.layers * longest * cfg.d_model);
  };
  m.model->set_attention(plan_attention(bytes, attention, memory_budget_gb,
                                        "--ablate / --patch at length " + std::to_string(longest),
                                        "shorter --causal-lengths"));
  // The bars are made on the first report, when the cells' total is known.
  auto run_with_progress = [](const char* label, auto&& measure) {
    std::unique_ptr<Progress> bar;
    auto result = measure([&](std::int64_t done, std::int64_t total) {
      if (!bar) bar = std::make_unique<Progress>(label, total);
      bar->update(done);
    });
    if (bar) bar->finish();
    return result;
  };
  if (o.ablate) {
    r.ablation = run_with_progress(
        "ablation", [&](const CellProgress& p) { return mean_ablate_layers(m.model, r.spec, p); });
  }
  if (o.patch) {
    r.patching = run_with_progress(
        "patching", [&](const CellProgress& p) { return patch_layers(m.model, r.spec, p); });
  }
  return r;
}

namespace {

// Wilson 95% intervals of every hop's accuracy and of all hops': {"1": [lo, hi], ..., "all"}.
std::map<std::string, std::vector<double>> wilson_intervals(const HopAccuracy& a) {
  std::map<std::string, std::vector<double>> out;
  std::int64_t correct = 0, total = 0;
  for (const auto& [h, n] : a.total) {
    const std::int64_t c = a.correct.count(h) ? a.correct.at(h) : 0;
    const Interval i = wilson_interval(c, n);
    out[std::to_string(h)] = {i.low, i.high};
    correct += c, total += n;
  }
  const Interval all = wilson_interval(correct, total);
  out[kAllHopsKey] = {all.low, all.high};
  return out;
}

}  // namespace

AblationRecord ablation_record(const AblationResult& r, const AblationSpec& spec) {
  AblationRecord out;
  out.lengths = r.lengths;
  out.count_per_hop = spec.count;
  out.seed = spec.seed;
  out.rule =
      "mean-ablation: the layer's heads' output z (before the output projection) replaced at "
      "every position by its mean over the same inputs of that length; drop = baseline - ablated "
      "accuracy; intervals: Wilson 95%";
  for (std::size_t k = 0; k < r.lengths.size(); ++k) {
    const std::string key = std::to_string(r.lengths[k]);
    out.baseline[key] = r.baseline[k].by_name();
    out.baseline_interval[key] = wilson_intervals(r.baseline[k]);
    out.chance[key] = r.baseline[k].chance_by_name();
  }
  // One ablated row: accuracy, interval and drop per length.
  auto fill = [&](AblatedRecord& row, const std::vector<HopAccuracy>& by_length) {
    for (std::size_t k = 0; k < r.lengths.size(); ++k) {
      const std::string key = std::to_string(r.lengths[k]);
      const HopAccuracy& a = by_length[k];
      row.accuracy[key] = a.by_name();
      row.interval[key] = wilson_intervals(a);
      std::map<std::string, double>& drop = row.drop[key];
      for (const auto& [h, n] : a.total) drop[std::to_string(h)] = r.baseline[k].hop(h) - a.hop(h);
      drop[kAllHopsKey] = r.baseline[k].all() - a.all();
    }
  };
  for (std::size_t i = 0; i < r.layers.size(); ++i) {
    AblatedLayerRecord& layer = out.layers.emplace_back();
    layer.layer = r.layers[i];
    fill(layer, r.ablated[i]);
  }
  if (!r.joint.empty()) {
    out.joint.emplace().layers = r.layers;
    fill(*out.joint, r.joint);
  }
  if (!r.spans.empty()) {
    out.spans.emplace();
    for (const AblatedSpan& span : r.spans) {
      AblatedSpanRecord& s = out.spans->emplace_back();
      s.first = span.first;
      s.last = span.last;
      fill(s, span.accuracy);
    }
  }
  return out;
}

PatchingRecord patching_record(const PatchingResult& r) {
  PatchingRecord out;
  out.lengths = r.lengths;
  out.pairs = r.pairs;
  out.rule =
      "Number 1-hop pairs differing in the query's integer only (the jump lands on another "
      "letter); the layer's z from the corrupted input replaces the clean input's; moved = "
      "fraction predicting the corrupted answer, kept = the clean one";
  for (std::size_t k = 0; k < r.lengths.size(); ++k) {
    const std::string key = std::to_string(r.lengths[k]);
    out.clean_accuracy[key] = r.clean_accuracy[k];
    out.corrupted_accuracy[key] = r.corrupted_accuracy[k];
  }
  for (std::size_t i = 0; i < r.layers.size(); ++i) {
    PatchedLayerRecord& layer = out.layers.emplace_back();
    layer.layer = r.layers[i];
    for (std::size_t k = 0; k < r.lengths.size(); ++k) {
      const std::string key = std::to_string(r.lengths[k]);
      layer.moved[key] = r.moved[i][k];
      layer.kept[key] = r.kept[i][k];
    }
  }
  return out;
}

void add_causal_results(const CausalResult& r, HeadsRecord& heads) {
  if (r.ablation) {
    heads.ablation = ablation_record(*r.ablation, r.spec);
    heads.ablation->checkpoint = r.checkpoint;
    heads.ablation->step = r.step;
  }
  if (r.patching) {
    heads.patching = patching_record(*r.patching);
    heads.patching->checkpoint = r.checkpoint;
    heads.patching->step = r.step;
  }
}

namespace {

// The hop counts a result measured, in order: the baseline's keys but "all".
std::vector<int> measured_hops(const AblationRecord& a) {
  std::vector<int> hops;
  if (a.lengths.empty() || !a.baseline.count(std::to_string(a.lengths.front()))) return hops;
  for (const auto& [hop, accuracy] : a.baseline.at(std::to_string(a.lengths.front())))
    if (hop != kAllHopsKey) hops.push_back(std::stoi(hop));
  std::sort(hops.begin(), hops.end());
  return hops;
}

// The value at [length][hop], NaN (a blank cell) where the file has none.
double cell(const ByHopByLength& v, int length, int hop) {
  const auto l = v.find(std::to_string(length));
  if (l == v.end()) return NAN;
  const auto h = l->second.find(std::to_string(hop));
  return h == l->second.end() ? NAN : h->second;
}

}  // namespace

Figure ablation_figure(const AblationRecord& a, Task task) {
  const std::vector<int> hops = measured_hops(a);
  if (hops.empty()) throw std::invalid_argument("ablation_figure: no accuracy at any hop");
  auto cells = [&](const ByHopByLength& accuracy) {
    std::vector<double> z;
    for (int length : a.lengths) {
      for (int hop : hops) z.push_back(cell(accuracy, length, hop));
    }
    return z;
  };
  // One panel per kind of row, each starting from the model as trained, every row named.
  auto panel = [&](const std::string& title) {
    Panel p;
    p.title = title;
    p.xlabel = "hops, input length";
    p.ylabel = "ablated layers";
    Heatmap& h = p.heatmap;
    h.z_label = "exact match";
    for (int length : a.lengths) {
      for (int hop : hops) h.x_labels.push_back(fmt::format("{} hop, L {}", hop, length));
    }
    h.y_labels.push_back("none");
    h.z.push_back(cells(a.baseline));
    return p;
  };
  auto add = [](Panel& p, const std::string& name, std::vector<double> z) {
    p.heatmap.y_labels.push_back(name);
    p.heatmap.z.push_back(std::move(z));
    p.heatmap.max_tics = p.heatmap.y_labels.size();
  };
  Figure f;
  Panel one = panel(
      fmt::format("{} run, step {}: one layer's attention mean-ablated", task_name(task), a.step));
  for (const AblatedLayerRecord& layer : a.layers)
    add(one, layer_name(layer.layer), cells(layer.accuracy));
  if (a.joint) {
    std::string all;
    for (int l : a.joint->layers) all += (all.empty() ? "L" : "+L") + std::to_string(l);
    add(one, all, cells(a.joint->accuracy));
  }
  f.panels.push_back(std::move(one));
  if (a.spans && !a.spans->empty()) {
    Panel spans = panel("consecutive layers mean-ablated at once");
    for (const AblatedSpanRecord& span : *a.spans)
      add(spans, fmt::format("L{}–L{}", span.first, span.last), cells(span.accuracy));
    f.panels.push_back(std::move(spans));
  }
  std::size_t rows = 0;
  for (const Panel& p : f.panels) rows = std::max(rows, p.heatmap.y_labels.size());
  const auto columns = static_cast<int>(f.panels.front().heatmap.x_labels.size());
  f.width = static_cast<int>(f.panels.size()) * std::max(560, 70 * columns + 240);
  f.height = std::max(420, 26 * static_cast<int>(rows) + 200);
  return f;
}

Figure patching_figure(const PatchingRecord& pr) {
  if (pr.layers.empty()) throw std::invalid_argument("patching_figure: no layer patched");
  Panel p;
  p.title = fmt::format(
      "number run, step {}: one layer's attention output patched from an input whose jump lands "
      "on another letter",
      pr.step);
  p.xlabel = "patched layer";
  p.ylabel = "fraction of pairs";
  p.key = "below";  // beside the axes it narrows them under the title, which then spills over
  p.ymin = 0;
  p.ymax = 1.02;
  p.xmin = -0.5;
  p.xmax = static_cast<double>(pr.layers.back().layer) + 0.5;
  for (int length : pr.lengths) {
    const std::string key = std::to_string(length);
    for (const bool moved : {true, false}) {
      Series s;
      s.title = fmt::format("{} answer, L {}", moved ? "corrupted" : "clean", length);
      s.style = "linespoints";
      s.line_width = moved ? 2 : 1;
      for (const PatchedLayerRecord& layer : pr.layers) {
        const std::map<std::string, double>& v = moved ? layer.moved : layer.kept;
        const auto it = v.find(key);
        s.x.push_back(layer.layer);
        s.y.push_back(it == v.end() ? NAN : it->second);
      }
      p.series.push_back(std::move(s));
    }
  }
  Figure f;
  f.panels = {p};
  f.width = 1000;
  f.height = 520;
  return f;
}

}  // namespace posbias
