#include "experiments/hops/hops_report.h"

#include <fmt/format.h>

#include "posbias/runfiles/metrics.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

std::string step_or_never(const std::optional<std::int64_t>& step) {
  return step ? std::to_string(*step) : "not reached";
}

}  // namespace

HopsSection hops_report_section(const std::filesystem::path& dir, const HopsPreset& preset) {
  HopsSection out;
  ReportSection& sec = out.section;
  sec.id = "hops";
  sec.title = "Hop tasks: positional vs symbolic learning and length generalization";
  const TrainConfig& c = preset.number;
  sec.paragraphs = {
      fmt::format(
          "A GPT-J style model ({} head per layer, d = {}, partial rotary on {} dims) is trained "
          "from scratch on the Number task (follow integers back by position) and the Letter task "
          "(follow pairs by matching symbols), hop counts mixed, answer-only loss, AdamW with "
          "warmup and linear decay, batch {}, fresh examples every step. Held-out accuracy per "
          "hop is logged during training; after training, accuracy is measured at longer inputs "
          "built by the same generator with more distractors.",
          c.heads, c.d_model, c.rotary_dim, c.batch),
      fmt::format(
          "Controls: for Number, the seen_jumps variant keeps every integer within the jumps seen "
          "at length {}, so a failure at long lengths is not just untrained integer embeddings; "
          "for Letter, a decoy chain with its own target that the query does not reach tests the "
          "unique-left-letter shortcut.",
          c.length),
      preset.name == HopsPreset::full().name
          ? "This report ran the full preset (reproduce --full): " + preset.describe() + "."
          : "This report ran the " + preset.name + " preset (" + preset.describe() +
                ") to stay fast; `posbias reproduce --full` runs the full preset (" +
                HopsPreset::full().describe() + ")."};
  const std::filesystem::path hops = dir / "hops";
  for (Task task : {Task::kNumber, Task::kLetter}) {
    const std::string name(task_name(task));
    TrainOptions o;
    o.config = preset.config(task);
    o.run_dir = hops / name;
    o.resume = std::filesystem::exists(o.run_dir / "train.json");
    const TrainResult r = run_training(o);
    EvalOptions e;
    e.run = o.run_dir.string();
    e.lengths = preset.eval_lengths;
    e.count = preset.eval_count;
    e.json = (hops / (name + "_eval.json")).string();
    e.plot = (hops / (name + "_eval")).string();
    const EvalResult ev = run_eval(e).back();  // the run's last checkpoint
    const AccuracySummary& m = r.summary.metrics;
    const std::int64_t first = ev.lengths.front(), last = ev.lengths.back();
    const std::string longest = std::to_string(last);
    sec.numbers.push_back(
        {name + ": training steps, wall time",
         fmt::format("{} steps, {:.0f} s", r.summary.steps, r.summary.train_seconds)});
    std::string crossings;
    for (const char* h : {"1", "2", "3", "4"}) {
      const auto it = m.crossing_90.find(h);
      if (it == m.crossing_90.end()) continue;
      crossings +=
          fmt::format("{}{}-hop {}", crossings.empty() ? "" : ", ", h, step_or_never(it->second));
    }
    sec.numbers.push_back({name + ": step where held-out accuracy first reaches 0.9", crossings});
    sec.numbers.push_back(
        {name + ": accuracy at length " + std::to_string(first) + " / at " + longest,
         fmt::format("{:.3f} / {:.3f}", ev.accuracy.front().all(), ev.accuracy.back().all())});
    if (task == Task::kNumber) {
      sec.numbers.push_back({name + ": seen_jumps control, accuracy at " + longest,
                             fmt::format("{:.3f}", ev.control_accuracy.back().all())});
    } else {
      sec.numbers.push_back({name + ": decoy control at " + longest + ": accuracy / decoy picked",
                             fmt::format("{:.3f} / {:.3f}", ev.control_accuracy.back().all(),
                                         ev.control_accuracy.back().decoy_rate())});
    }
    sec.figures.push_back({"hops/" + name + "/training_accuracy",
                           name + " task: held-out accuracy per hop during training."});
    sec.figures.push_back({"hops/" + name + "/training_loss", name + " task: training loss."});
    sec.figures.push_back({"hops/" + name + "_eval",
                           name + " model: accuracy against input length, per hop and control."});
    sec.data.push_back({"hops/" + name + "/metrics.jsonl", name + ": metrics per evaluation"});
    sec.data.push_back({"hops/" + name + "/summary.json", name + ": run summary and crossings"});
    sec.data.push_back({"hops/" + name + "_eval.json", name + ": accuracy[length][hop]"});
    out.runs.push_back({task, o.run_dir});
  }
  return out;
}

}  // namespace posbias
