#include "experiments/text/text_eval_command.h"

#include <fmt/format.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_eval.h"
#include "posbias/train/trainer.h"

namespace posbias {

bool is_text_run(const std::string& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(run_dir) / "train.json", ec))
    return false;
  return read_run_header(run_dir).config.task == Task::kText;
}

std::vector<TextEvalResult> measure_text_eval(const TextEvalOptions& o,
                                              const std::vector<RunCheckpoint>& checkpoints) {
  const RunHeader header = read_run_header(o.run);
  const TrainConfig& c = header.config;
  if (c.task != Task::kText) throw std::invalid_argument("'" + o.run + "' is not a text run");
  // The corpus first (what the run trained on, held by the process when the plan is checked),
  // then the plan of the evaluation, before the model is loaded.
  const TextRunData data =
      prepare_text_run(c, o.run, /*fresh=*/false, header.corpus_fingerprint.value_or(""));
  const AttentionPath path =
      plan_attention([&](AttentionPath a) { return heldout_split_bytes(c, data, a); }, o.attention,
                     o.memory_budget_gb,
                     "eval of a text run at length " + std::to_string(c.length) + " over " +
                         std::to_string(data.streams.heldout.size()) + " held-out tokens",
                     "a machine with more memory");
  std::vector<TextEvalResult> results;
  for (const RunCheckpoint& checkpoint : checkpoints) {
    LoadedModel loaded = load_trained_model(o.run, checkpoint.path);
    loaded.model->set_attention(path);
    TextEvalResult r;
    static_cast<HeldoutSplit&>(r) = evaluate_heldout_split(c, loaded.model, data);
    r.run = o.run;
    r.checkpoint = loaded.path.string();
    r.step = loaded.info.step;
    r.arch = c.arch;
    r.pos = *c.pos;
    r.length = c.length;
    r.attention = path;
    results.push_back(std::move(r));
  }
  return results;
}

namespace {

// The loss per position of `results`, one series each (titled by `title`), on one panel.
Figure loss_per_position_figure(const std::string& panel_title,
                                const std::vector<TextEvalResult>& results,
                                const std::function<void(const TextEvalResult&, Series&)>& name) {
  Panel p;
  p.title = panel_title;
  p.xlabel = "position t (predicting token t + 1)";
  p.ylabel = "cross-entropy (nats)";
  p.log_x = true;
  for (const TextEvalResult& r : results) {
    Series s;
    name(r, s);
    for (std::size_t j = 0; j < r.loss_per_position.size(); ++j) {
      s.x.push_back(static_cast<double>(j));
      s.y.push_back(r.loss_per_position[j]);
    }
    p.series.push_back(std::move(s));
  }
  Figure f;
  f.panels = {p};
  return f;
}

}  // namespace

Figure text_eval_figure(const TextEvalResult& r) {
  return loss_per_position_figure(
      fmt::format("held-out loss per position (step {}, {:.3f} bits per byte)", r.step,
                  r.bits_per_byte),
      {r}, [](const TextEvalResult& one, Series& s) {
        s.title = to_string(one.arch) + " " + to_string(one.pos);
      });
}

Figure text_eval_steps_figure(const std::vector<TextEvalResult>& results) {
  Figure f = loss_per_position_figure("held-out loss per position through training", results,
                                      [](const TextEvalResult& one, Series& s) {
                                        s.title = fmt::format("step {} ({:.3f} bits per byte)",
                                                              one.step, one.bits_per_byte);
                                        s.order = static_cast<double>(one.step);
                                      });
  f.panels.front().order_label = "training step";
  return f;
}

void run_text_eval(const TextEvalOptions& o) {
  const std::vector<TextEvalResult> results =
      measure_text_eval(o, select_checkpoints(o.run, o.checkpoints));
  // Without --json on a terminal: a summary and how to get the JSON (core/json_result.h).
  const auto summary = [&results] {
    std::string out;
    for (const TextEvalResult& r : results)
      out += fmt::format(
          "text run at step {}: {:.3f} bits per byte held out (unigram {:.3f}, "
          "bigram {:.3f})\n",
          r.step, r.bits_per_byte, r.unigram_bits_per_byte, r.bigram_bits_per_byte);
    return out;
  };
  if (results.size() == 1) {
    const TextEvalResult& r = results.front();
    write_json_result(o.json, to_json(r).dump(2) + "\n", summary);
    if (!o.plot.empty()) render_figure(text_eval_figure(r), o.plot);
  } else {
    write_json_result(
        o.json, to_json(TextEvalSteps{o.run, EvalTask::kText, results}).dump(2) + "\n", summary);
    if (!o.plot.empty()) render_figure(text_eval_steps_figure(results), o.plot);
  }
}

}  // namespace posbias
