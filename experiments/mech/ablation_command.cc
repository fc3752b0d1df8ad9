#include "experiments/mech/ablation_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "posbias/core/progress.h"
#include "posbias/mech/head_name.h"
#include "posbias/model/memory_plan.h"
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

void add_causal_results(const CausalResult& r, HeadsRecord& heads) {
  if (r.ablation) {
    heads.ablation = to_json(*r.ablation, r.spec);
    (*heads.ablation)["checkpoint"] = r.checkpoint;
    (*heads.ablation)["step"] = r.step;
  }
  if (r.patching) {
    heads.patching = to_json(*r.patching);
    (*heads.patching)["checkpoint"] = r.checkpoint;
    (*heads.patching)["step"] = r.step;
  }
}

Figure ablation_figure(const CausalResult& r) {
  if (!r.ablation) throw std::invalid_argument("ablation_figure: no ablation measured");
  const AblationResult& a = *r.ablation;
  auto cells = [&](const std::vector<HopAccuracy>& by_length) {
    std::vector<double> z;
    for (const HopAccuracy& acc : by_length) {
      for (int hop : r.spec.hops) z.push_back(acc.hop(hop));
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
    for (std::size_t k = 0; k < a.lengths.size(); ++k) {
      for (int hop : r.spec.hops)
        h.x_labels.push_back(fmt::format("{} hop, L {}", hop, a.lengths[k]));
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
  Panel one = panel(fmt::format("{} run, step {}: one layer's attention mean-ablated",
                                task_name(r.task), r.step));
  for (std::size_t i = 0; i < a.layers.size(); ++i)
    add(one, layer_name(a.layers[i]), cells(a.ablated[i]));
  if (!a.joint.empty()) {
    std::string all;
    for (int l : a.layers) all += (all.empty() ? "L" : "+L") + std::to_string(l);
    add(one, all, cells(a.joint));
  }
  f.panels.push_back(std::move(one));
  if (!a.spans.empty()) {
    Panel spans = panel("consecutive layers mean-ablated at once");
    for (const AblatedSpan& span : a.spans)
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

Figure patching_figure(const CausalResult& r) {
  if (!r.patching) throw std::invalid_argument("patching_figure: no patching measured");
  const PatchingResult& pr = *r.patching;
  Panel p;
  p.title = fmt::format(
      "number run, step {}: one layer's attention output patched from an input whose jump lands "
      "on another letter",
      r.step);
  p.xlabel = "patched layer";
  p.ylabel = "fraction of pairs";
  p.ymin = 0;
  p.ymax = 1.02;
  p.xmin = -0.5;
  p.xmax = static_cast<double>(pr.layers.back()) + 0.5;
  for (std::size_t k = 0; k < pr.lengths.size(); ++k) {
    for (const bool moved : {true, false}) {
      Series s;
      s.title = fmt::format("{} answer, L {}", moved ? "corrupted" : "clean", pr.lengths[k]);
      s.style = "linespoints";
      s.line_width = moved ? 2 : 1;
      for (std::size_t i = 0; i < pr.layers.size(); ++i) {
        s.x.push_back(pr.layers[i]);
        s.y.push_back(moved ? pr.moved[i][k] : pr.kept[i][k]);
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
