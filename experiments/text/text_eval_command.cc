#include "experiments/text/text_eval_command.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "posbias/core/atomic_file.h"
#include "posbias/model/memory_plan.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_eval.h"
#include "posbias/train/trainer.h"

namespace posbias {

bool is_text_run(const std::string& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(run_dir) / "train.json", ec))
    return false;
  return config_of(read_run_header(run_dir)).task == Task::kText;
}

nlohmann::json measure_text_eval(const TextEvalOptions& o) {
  const nlohmann::json header = read_run_header(o.run);
  const TrainConfig c = config_of(header);
  if (c.task != Task::kText) throw std::invalid_argument("'" + o.run + "' is not a text run");
  // The corpus first (what the run trained on, held by the process when the plan is checked),
  // then the plan of the evaluation, before the model is loaded.
  const TextRunData data =
      prepare_text_run(c, o.run, /*fresh=*/false, header.value("corpus_fingerprint", ""));
  const AttentionPath path = plan_attention(
      [&](AttentionPath a) { return heldout_split_bytes(c, data, a); }, o.attention,
      o.memory_budget_gb,
      "eval of a text run at length " + std::to_string(c.length) + " over " +
          std::to_string(data.streams.heldout.size()) + " held-out tokens",
      "a machine with more memory");
  LoadedModel loaded = load_trained_model(o.run, o.checkpoint);
  loaded.model->set_attention(path);
  nlohmann::json j = evaluate_heldout_split(c, loaded.model, data);
  j["run"] = o.run;
  j["checkpoint"] = loaded.path.string();
  j["step"] = loaded.info.step;
  j["task"] = "text";
  j["arch"] = to_string(c.arch);
  j["pos"] = to_string(*c.pos);
  j["length"] = c.length;
  j["attention"] = to_string(path);
  return j;
}

Figure text_eval_figure(const nlohmann::json& r) {
  Panel p;
  char bits[64];
  std::snprintf(bits, sizeof bits, "%.3f bits per byte", r.at("bits_per_byte").get<double>());
  p.title = "held-out loss per position (step " + std::to_string(r.at("step").get<long long>()) +
            ", " + bits + ")";
  p.xlabel = "position j (predicting token j + 1)";
  p.ylabel = "cross-entropy (nats)";
  p.log_x = true;
  Series s;
  s.title = r.at("arch").get<std::string>() + " " + r.at("pos").get<std::string>();
  const auto loss = r.at("loss_per_position").get<std::vector<double>>();
  for (std::size_t j = 0; j < loss.size(); ++j) {
    s.x.push_back(static_cast<double>(j + 1));
    s.y.push_back(loss[j]);
  }
  p.series.push_back(std::move(s));
  Figure f;
  f.panels = {p};
  return f;
}

void run_text_eval(const TextEvalOptions& o) {
  const nlohmann::json j = measure_text_eval(o);
  write_output(o.json, j.dump(2) + "\n");
  if (!o.plot.empty()) render_figure(text_eval_figure(j), o.plot);
  std::fprintf(stderr, "posbias eval: %.3f bits per byte (unigram %.3f, bigram %.3f)\n",
               j.at("bits_per_byte").get<double>(), j.at("unigram_bits_per_byte").get<double>(),
               j.at("bigram_bits_per_byte").get<double>());
}

}  // namespace posbias
