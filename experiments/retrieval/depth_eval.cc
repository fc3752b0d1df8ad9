#include "experiments/retrieval/depth_eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "experiments/retrieval/depth_eval_record.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/passkey_eval_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/json_result.h"
#include "posbias/core/progress.h"
#include "posbias/model/memory_plan.h"
#include "posbias/train/hop_eval.h"

namespace posbias {
namespace {

// A cell of one checkpoint: a row of the CSV of several.
struct CheckpointCell {
  const DepthEvalOutput* output = nullptr;
  DepthCellIndex cell;
};

// Several checkpoints' rows, each after its step; the columns are each checkpoint's own (the
// same names for every checkpoint of one run).
std::string depth_steps_csv(const std::vector<DepthEvalOutput>& outputs) {
  if (outputs.empty()) return "";
  using C = CheckpointCell;
  std::vector<CsvColumn<C>> columns = {
      {"step", [](const C& c) { return std::to_string(c.output->run->step); }}};
  for (std::size_t k = 0; k < outputs.front().csv.size(); ++k)
    columns.push_back(
        {outputs.front().csv[k].name, [k](const C& c) { return c.output->csv[k].cell(c.cell); }});
  std::vector<C> rows;
  for (const DepthEvalOutput& o : outputs)
    for (const DepthCellIndex& cell : depth_cell_indices(o.run->accuracy))
      rows.push_back({&o, cell});
  return csv_text(columns, rows);
}

}  // namespace

void measure_depth_cells(DepthEvalRun& run, const std::vector<int>& lengths,
                         const DepthEvalOptions& o, const std::function<void(AttentionPath)>& use,
                         const std::function<DepthScore(int length, double depth)>& score_cell) {
  const auto t0 = std::chrono::steady_clock::now();
  Progress progress("eval", static_cast<std::int64_t>(lengths.size() * o.depths.size()));
  std::int64_t done = 0;
  auto score = [&](int length, double depth, std::size_t) {
    const auto at = std::find(lengths.begin(), lengths.end(), length) - lengths.begin();
    use(run.attention[static_cast<std::size_t>(at)]);
    return score_cell(length, depth);
  };
  run.accuracy = measure_depth_accuracy(lengths, o.depths, o.threshold, score,
                                        [&] { progress.update(++done); });
  progress.finish();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A checkpoint's lines for a person at a terminal: the depth-averaged accuracy per length, the
// effective length and the U verdict.
std::string depth_eval_summary(AnswerInputs task, std::int64_t step, const DepthAccuracy& a) {
  std::string by_length;
  for (std::size_t i = 0; i < a.lengths.size() && i < a.mean_accuracy.size(); ++i)
    by_length += fmt::format("{}{}: {:.3f}", i ? ", " : "", a.lengths[i], a.mean_accuracy[i]);
  return fmt::format(
      "{} at step {}: exact match, mean over depths, by length: {}\n"
      "effective length {} (threshold {:g}); U verdict pooled over lengths: {}\n",
      to_string(task), step, by_length,
      a.effective_length ? std::to_string(*a.effective_length) : "none", a.threshold,
      a.u_pooled.verdict);
}

void write_depth_eval(AnswerInputs task, const DepthEvalOptions& to,
                      const std::vector<DepthEvalOutput>& outputs) {
  // Without --json on a terminal: a summary and how to get the JSON (core/json_result.h).
  const auto summary = [&] {
    std::string out;
    for (const DepthEvalOutput& o : outputs)
      out += depth_eval_summary(task, o.run->step, o.run->accuracy);
    return out;
  };
  if (outputs.size() == 1) {
    const DepthEvalOutput& one = outputs.front();
    write_json_result(to.json, to_json(one.record).dump(2) + "\n", summary);
    if (!to.csv.empty())
      write_output(to.csv, csv_text(one.csv, depth_cell_indices(one.run->accuracy)));
    if (!to.plot.empty()) render_depth_eval_figures(one.record, to.plot);
    return;
  }
  DepthEvalSteps steps{to.run, eval_task(task), {}};
  std::vector<const DepthEvalRun*> runs;
  for (const DepthEvalOutput& o : outputs) {
    steps.checkpoints.push_back(o.record);
    runs.push_back(o.run);
  }
  write_json_result(to.json, to_json(steps).dump(2) + "\n", summary);
  if (!to.csv.empty()) write_output(to.csv, depth_steps_csv(outputs));
  if (!to.plot.empty()) render_figure(depth_steps_figure(task, runs), to.plot + "-steps");
}

void render_depth_eval_figures(const DepthEvalRecord& record, const std::string& stem) {
  const bool kv = record.task == AnswerInputs::kKv;
  const Figure heatmap = kv ? kv_heatmap_figure(record) : passkey_heatmap_figure(record);
  const Figure by_depth = kv ? kv_depth_figure(record) : passkey_depth_figure(record);
  render_figure(heatmap, stem + "-heatmap");
  render_figure(by_depth, stem + "-depth");
}

Figure depth_steps_figure(AnswerInputs task, const std::vector<const DepthEvalRun*>& runs) {
  Panel p;
  p.title =
      to_string(task) + " through training: mean exact match over depths against context length";
  p.xlabel = "context length (tokens)";
  p.ylabel = "exact-match accuracy (mean over depths)";
  p.ymin = 0;
  p.ymax = 1.02;
  p.order_label = "training step";
  for (const DepthEvalRun* run : runs) {
    Series s;
    s.title = "step " + std::to_string(run->step);
    s.style = "linespoints";
    s.order = static_cast<double>(run->step);
    const DepthAccuracy& a = run->accuracy;
    for (std::size_t l = 0; l < a.lengths.size() && l < a.mean_accuracy.size(); ++l) {
      s.x.push_back(a.lengths[l]);
      s.y.push_back(a.mean_accuracy[l]);
    }
    p.series.push_back(std::move(s));
  }
  Figure f;
  f.panels = {p};
  return f;
}

DepthEvalRecord depth_eval_record(AnswerInputs task, const DepthEvalRun& r) {
  DepthEvalRecord out;
  out.task = task;
  out.run = r.run;
  out.checkpoint = r.checkpoint;
  out.step = r.step;
  out.config = r.config;
  out.count = r.count;
  out.seed = r.seed;
  const DepthAccuracy& a = r.accuracy;
  out.lengths = a.lengths;
  out.depths = a.depths;
  out.threshold = a.threshold;
  for (std::size_t l = 0; l < a.lengths.size(); ++l) {
    const std::string key = std::to_string(a.lengths[l]);
    for (std::size_t d = 0; d < a.depths.size() && l < a.cells.size(); ++d)
      out.depth_accuracy[key][depth_key(a.depths[d])] = a.cells[l][d];
    if (l < a.mean_accuracy.size()) out.mean_accuracy[key] = a.mean_accuracy[l];
    if (l < a.u_by_length.size()) out.u_verdict.by_length[key] = a.u_by_length[l];
    if (l < r.attention.size()) out.attention[key] = r.attention[l];
  }
  out.effective_length = a.effective_length;
  out.u_verdict.rule = kUVerdictRule;
  out.u_verdict.pooled = a.u_pooled;
  out.rope_scaling = r.rope_scaling;
  out.logn_scale = r.logn_scale;
  out.calibrate = r.calibrate;
  out.seconds = r.seconds;
  return out;
}

std::vector<AttentionPath> plan_depth_eval(const TrainConfig& c, const std::vector<int>& lengths,
                                           const std::function<DepthEvalShape(int)>& shape,
                                           const DepthEvalOptions& o) {
  std::vector<AttentionPath> paths;
  for (int len : lengths) {
    const DepthEvalShape s = shape(len);
    auto bytes = [&](AttentionPath a) {
      return weight_bytes(c.model_config(), true) + hop_examples_bytes(o.count, s.example_ids) +
             forward_bytes(c.model_config(), eval_batch_size(s.forward_tokens), s.forward_tokens,
                           /*cached=*/false, {a});
    };
    paths.push_back(plan_attention(bytes, o.attention, o.memory_budget_gb,
                                   "eval at length " + std::to_string(len),
                                   "shorter --lengths or a smaller --count"));
  }
  return paths;
}

}  // namespace posbias
