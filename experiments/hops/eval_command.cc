#include "experiments/hops/eval_command.h"

#include <chrono>

#include "posbias/core/atomic_file.h"
#include "posbias/core/parse.h"
#include "posbias/core/plot.h"
#include "posbias/core/progress.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"

namespace posbias {
namespace {

void plot_eval(const nlohmann::json& result, const std::string& stem) {
  Panel p;
  p.title = result["task"].get<std::string>() + " model: accuracy against input length";
  p.xlabel = "input length (tokens, log scale)";
  p.ylabel = "accuracy";
  p.log_x = true;
  p.ymin = 0;
  p.ymax = 1.02;
  p.key = "bottom left";
  auto add = [&](const nlohmann::json& acc, const std::string& key, const std::string& title,
                 int width) {
    Series s;
    s.title = title;
    s.style = "linespoints";
    s.line_width = width;
    for (int len : result["lengths"].get<std::vector<int>>()) {  // in length order
      const std::string k = std::to_string(len);
      if (!acc.contains(k) || !acc[k].contains(key)) continue;
      s.x.push_back(len);
      s.y.push_back(acc[k][key].get<double>());
    }
    p.series.push_back(std::move(s));
  };
  for (const auto& [key, v] : result["accuracy"].begin().value().items()) {
    add(result["accuracy"], key, key == "all" ? "all hops" : key + "-hop", key == "all" ? 3 : 1);
  }
  if (result.contains("controls")) {
    for (const auto& [name, control] : result["controls"].items()) {
      add(control["accuracy"], "all", "all hops, " + name + " control", 3);
    }
  }
  Figure f;
  f.panels = {p};
  render_figure(f, stem);
}

}  // namespace

nlohmann::json run_eval(const EvalOptions& o) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  if (o.count < 1 || o.count > 1'000'000) {
    throw std::invalid_argument("--count must be in 1..1000000, got " + std::to_string(o.count));
  }
  const std::vector<int> lengths = parse_int_list(o.lengths, "--lengths", 2, 100000);
  LoadedModel loaded = load_trained_model(o.run, o.checkpoint);
  const TrainConfig& c = loaded.info.config;
  const Variant control = c.task == Task::kNumber ? Variant::kSeenJumps : Variant::kDecoy;
  for (int len : lengths) {
    validate_model_length(c.task, len);
    for (int h : c.hops) {
      validate_spec(c.task, h, len, Variant::kStandard);
      if (o.controls) validate_spec(c.task, h, len, control);
    }
  }

  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json result{{"task", task_name(c.task)},
                        {"run", o.run},
                        {"checkpoint", loaded.path.string()},
                        {"step", loaded.info.step},
                        {"count_per_hop", o.count},
                        {"seed", o.seed},
                        {"lengths", lengths}};
  const std::string control_name(variant_name(control));
  Progress progress("eval", static_cast<std::int64_t>(lengths.size()) * (o.controls ? 2 : 1));
  std::int64_t done = 0;
  for (int len : lengths) {
    for (Variant v : {Variant::kStandard, control}) {
      if (v == control && !o.controls) continue;
      const HopAccuracy acc = evaluate_hops(
          loaded.model, make_dataset(per_hop_spec(c.task, c.hops, len, o.count, o.seed, v)),
          eval_batch_size(len));
      const std::string key = std::to_string(len);
      if (v == Variant::kStandard) {
        result["accuracy"][key] = acc.to_json();
      } else {
        result["controls"][control_name]["accuracy"][key] = acc.to_json();
        if (v == Variant::kDecoy)
          result["controls"][control_name]["decoy_rate"][key] = acc.decoy_rate();
      }
      progress.update(++done);
    }
  }
  progress.finish();
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string text = result.dump(2) + "\n";
  write_output(o.json, text);
  if (!o.plot.empty()) plot_eval(result, o.plot);
  return result;
}

}  // namespace posbias
