#include "experiments/hops/eval_command.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <stdexcept>

#include "experiments/hops/hop_eval_record.h"
#include "experiments/hops/hop_seeds.h"
#include "posbias/arch/logn_scale.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/core/memory.h"
#include "posbias/core/parse.h"
#include "posbias/core/progress.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {
namespace {

// The checks that need no run.
void check_eval_options(const EvalOptions& o) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  if (o.count < 1 || o.count > 1'000'000) {
    throw std::invalid_argument("--count must be in 1..1000000, got " + std::to_string(o.count));
  }
  if (o.lengths.empty()) throw std::invalid_argument("--lengths needs at least one length");
  for (std::int64_t len : o.lengths) {
    if (len < 2 || len > 100000) {
      throw std::invalid_argument("--lengths must be in 2..100000, got " + std::to_string(len));
    }
  }
}

}  // namespace

EvalResult measure_eval(const EvalOptions& o, const std::filesystem::path& checkpoint) {
  check_eval_options(o);
  LoadedModel loaded = load_trained_model(o.run, checkpoint);
  const TrainConfig& c = loaded.info.config;
  require_hop_task(c.task, "hop evaluation");
  loaded.model->set_rope_scaling(o.rope_scaling);     // refuses a model without rotary positions
  check_eval_logn_scale(o.logn_scale, c.logn_scale);  // a run trained with it
  if (o.logn_scale) loaded.model->set_logn_scale(o.logn_scale);  // refuses ALiBi, a null sink
  for (int h : o.hops) {
    if (std::find(c.hops.begin(), c.hops.end(), h) == c.hops.end())
      throw std::invalid_argument("--hops " + std::to_string(h) +
                                  ": the run was not trained on it; give hops among its " +
                                  join_integers(c.hops));
  }
  EvalResult r;
  r.task = c.task;
  r.control = c.task == Task::kNumber ? Variant::kSeenJumps : Variant::kDecoy;
  r.has_control = o.controls;
  for (std::int64_t len : o.lengths) {
    validate_model_length(c.task, static_cast<int>(len));
    // The examples are generated a batch at a time (evaluate_hops on their spec): --count adds
    // time, not memory.
    auto bytes = [&](AttentionPath a) {
      return weight_bytes(c.model_config(), true) + hop_examples_bytes(eval_batch_size(len), len) +
             forward_bytes(c.model_config(), eval_batch_size(len), len, /*cached=*/false, {a});
    };
    const AttentionPath path =
        plan_attention(bytes, o.attention, o.memory_budget_gb,
                       "eval at length " + std::to_string(len), "shorter --lengths");
    r.attention.push_back(path);
    for (int h : c.hops) {
      validate_spec(c.task, h, static_cast<int>(len), Variant::kStandard);
      if (o.controls) validate_spec(c.task, h, static_cast<int>(len), r.control);
    }
  }
  r.run = o.run;
  r.checkpoint = loaded.path.string();
  r.step = loaded.info.step;
  r.count_per_hop = o.count;
  r.seed = o.seed;
  r.lengths = o.lengths;
  r.rope_scaling = o.rope_scaling;
  r.logn_scale = o.logn_scale;

  const auto t0 = std::chrono::steady_clock::now();
  Progress progress("eval", static_cast<std::int64_t>(o.lengths.size()) * (o.controls ? 2 : 1));
  std::int64_t done = 0;
  for (std::size_t i = 0; i < o.lengths.size(); ++i) {
    const std::int64_t len = o.lengths[i];
    loaded.model->set_attention(r.attention[i]);
    for (Variant v : {Variant::kStandard, r.control}) {
      if (v == r.control && !o.controls) continue;
      const HopAccuracy acc = evaluate_hops(
          loaded.model, per_hop_spec(c.task, c.hops, static_cast<int>(len), o.count, o.seed, v),
          eval_batch_size(len), o.hops);
      (v == Variant::kStandard ? r.accuracy : r.control_accuracy).push_back(acc);
      progress.update(++done);
    }
  }
  progress.finish();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

HopEvalRecord eval_record(const EvalResult& r) {
  HopEvalRecord f;
  f.task = r.task;
  f.run = r.run;
  f.checkpoint = r.checkpoint;
  f.step = r.step;
  f.count_per_hop = r.count_per_hop;
  f.seed = r.seed;
  f.lengths = r.lengths;
  f.chance.emplace();
  f.attention.emplace();
  HopEvalControl control;
  if (r.control == Variant::kDecoy) control.decoy_rate.emplace();
  if (r.has_control) control.chance.emplace();
  for (std::size_t i = 0; i < r.lengths.size(); ++i) {
    const std::string key = std::to_string(r.lengths[i]);
    f.accuracy[key] = r.accuracy[i].by_name();
    (*f.chance)[key] = r.accuracy[i].chance_by_name();
    (*f.attention)[key] = r.attention[i];
    if (!r.has_control) continue;
    control.accuracy[key] = r.control_accuracy[i].by_name();
    (*control.chance)[key] = r.control_accuracy[i].chance_by_name();
    if (control.decoy_rate) (*control.decoy_rate)[key] = r.control_accuracy[i].decoy_rate();
  }
  if (r.has_control) f.controls = {{std::string(variant_name(r.control)), std::move(control)}};
  f.rope_scaling = r.rope_scaling;
  f.logn_scale = r.logn_scale;
  f.seconds = r.seconds;
  return f;
}

nlohmann::json to_json(const EvalResult& r) { return to_json(eval_record(r)); }

namespace {

// The file's row of one length ("accuracy.17"), or a one-line refusal naming the field.
const HopRow& length_row(const HopRowsByLength& rows, std::int64_t length,
                         const std::string& field) {
  const auto row = rows.find(std::to_string(length));
  if (row == rows.end())
    throw std::invalid_argument("eval field '" + field + "' has no row for length " +
                                std::to_string(length));
  return row->second;
}

// The hops of a row ("1".."4" beside "all"), in order.
std::vector<int> row_hops(const HopRow& row, const std::string& field) {
  std::vector<int> hops;
  for (const auto& [key, value] : row) {
    if (key == kAllHopsKey) continue;
    int hop = 0;
    const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), hop);
    if (error != std::errc() || end != key.data() + key.size() || hop < 1 ||
        std::to_string(hop) != key)
      throw std::invalid_argument("eval field '" + field + "' has the key '" + key +
                                  "'; hops are 1, 2, ... or \"" + kAllHopsKey + "\"");
    hops.push_back(hop);
  }
  std::sort(hops.begin(), hops.end());
  return hops;
}

}  // namespace

Figure eval_figure(const HopEvalRecord& r) {
  Panel p = accuracy_length_panel(std::string(task_name(r.task)) +
                                  " model: accuracy against input length");
  // The value `key` ("1".."4", "all") of `rows` at each length that has it; "all" at every one.
  auto series = [&](const HopRowsByLength& rows, const std::string& field, const std::string& key,
                    const std::string& title, const std::string& style, int width) {
    Series s;
    s.title = title;
    s.style = style;
    s.line_width = width;
    for (std::int64_t length : r.lengths) {
      const HopRow& row = length_row(rows, length, field);
      const auto value = row.find(key);
      if (value == row.end() && key != kAllHopsKey) continue;
      if (value == row.end())
        throw std::invalid_argument("eval field '" + field + "." + std::to_string(length) +
                                    "' has no \"" + kAllHopsKey + "\"");
      s.x.push_back(static_cast<double>(length));
      s.y.push_back(value->second);
    }
    p.series.push_back(std::move(s));
  };
  if (!r.lengths.empty()) {
    // Two or more hop counts are an ordered family: the sequential map, named on the colour bar.
    const std::vector<int> hops =
        row_hops(length_row(r.accuracy, r.lengths.front(), "accuracy"), "accuracy");
    for (int hop : hops) {
      series(r.accuracy, "accuracy", std::to_string(hop), hop_key_title(std::to_string(hop)),
             "linespoints", 1);
      if (hops.size() > 1) p.series.back().order = hop;
    }
    if (hops.size() > 1) p.order_label = kHopsOrderLabel;
  }
  series(r.accuracy, "accuracy", kAllHopsKey, hop_key_title(kAllHopsKey), "linespoints", 3);
  // A uniform guess among each input's candidate answers (files of earlier builds: none).
  if (r.chance)
    series(*r.chance, "chance", kAllHopsKey,
           "chance (a uniform guess among the input's candidates)", "lines dt 2", 1);
  if (r.controls) {
    for (const auto& [variant, control] : *r.controls)
      series(control.accuracy, "controls." + variant + ".accuracy", kAllHopsKey,
             hop_key_title(kAllHopsKey) + ", " + plain_text(variant) + " control", "linespoints",
             3);
  }
  Figure f;
  f.panels = {p};
  return f;
}

Figure eval_steps_figure(const std::vector<EvalResult>& results) {
  Panel p = accuracy_length_panel(std::string(task_name(results.front().task)) +
                                  " model through training: accuracy against input length");
  p.order_label = "training step";
  for (const EvalResult& r : results) {
    Series s;
    s.title = "step " + std::to_string(r.step);
    s.style = "linespoints";
    s.order = static_cast<double>(r.step);
    for (std::size_t i = 0; i < r.lengths.size() && i < r.accuracy.size(); ++i) {
      s.x.push_back(static_cast<double>(r.lengths[i]));
      s.y.push_back(r.accuracy[i].all());
    }
    p.series.push_back(std::move(s));
  }
  Series chance;  // the inputs are the same at every checkpoint, and so is their chance
  chance.title = "chance (a uniform guess among the input's candidates)";
  chance.style = "lines dt 2";
  chance.line_width = 1;
  const EvalResult& last = results.back();
  for (std::size_t i = 0; i < last.lengths.size() && i < last.accuracy.size(); ++i) {
    chance.x.push_back(static_cast<double>(last.lengths[i]));
    chance.y.push_back(last.accuracy[i].chance_all());
  }
  p.series.push_back(std::move(chance));
  Figure f;
  f.panels = {p};
  return f;
}

std::vector<EvalResult> run_eval(const EvalOptions& o) {
  check_eval_options(o);
  std::vector<EvalResult> results;
  for (const RunCheckpoint& c : select_checkpoints(o.run, o.checkpoints))
    results.push_back(measure_eval(o, c.path));
  if (results.size() == 1) {
    const EvalResult& r = results.front();
    // Without --json on a terminal: a summary and how to get the JSON (core/json_result.h).
    write_json_result(o.json, to_json(r).dump(2) + "\n",
                      [&r] { return hop_eval_summary(eval_record(r)); });
    if (!o.plot.empty()) render_figure(eval_figure(eval_record(r)), o.plot);
    return results;
  }
  HopEvalSteps steps{o.run, eval_task(results.front().task), {}};
  for (const EvalResult& r : results) steps.checkpoints.push_back(eval_record(r));
  write_json_result(o.json, to_json(steps).dump(2) + "\n", [&results] {
    std::string summary;
    for (const EvalResult& r : results) summary += hop_eval_summary(eval_record(r));
    return summary;
  });
  if (!o.plot.empty()) render_figure(eval_steps_figure(results), o.plot);
  return results;
}

}  // namespace posbias
