#include "experiments/mech/heads_command.h"

#include <chrono>

#include "posbias/core/atomic_file.h"
#include "posbias/core/progress.h"
#include "posbias/hf/hf_config.h"
#include "posbias/hf/token_file.h"
#include "posbias/mech/head_scores.h"
#include "posbias/model/hf_weights.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"

namespace posbias {
namespace {

nlohmann::json heads_json(const std::vector<HeadScore>& scores) {
  nlohmann::json out = nlohmann::json::array();
  for (const HeadScore& h : scores) {
    out.push_back({{"layer", h.layer},
                   {"head", h.head},
                   {"positional", h.positional},
                   {"symbolic", h.symbolic},
                   {"gap", h.gap},
                   {"label", h.label}});
  }
  return out;
}

std::string head_name(const nlohmann::json& h, bool with_head) {
  std::string s = "L" + std::to_string(h["layer"].get<int>());
  if (with_head) s += ".h" + std::to_string(h["head"].get<int>());
  return s;
}

// Samples of a run: held-out examples of its task, hops and training length.
torch::Tensor run_samples(const TrainConfig& c, const HeadsOptions& o) {
  const int length = o.length > 0 ? static_cast<int>(o.length) : c.length;
  validate_model_length(c.task, length);
  const auto examples = make_dataset({c.task, c.hops, length, o.samples, o.seed});
  return encode_examples(examples, 0, examples.size()).ids;
}

torch::Tensor token_samples(const HeadsOptions& o, std::int64_t vocab) {
  if (o.tokens.empty()) {
    const std::int64_t len = o.length > 0 ? o.length : 128;
    auto gen = at::detail::createCPUGenerator(o.seed + 0x5eedULL);
    return at::randint(vocab, {o.samples, len}, gen);
  }
  auto rows = read_token_file(o.tokens, vocab);
  if (static_cast<std::int64_t>(rows.size()) > o.samples)
    rows.resize(static_cast<std::size_t>(o.samples));
  const std::size_t len = o.length > 0 ? static_cast<std::size_t>(o.length) : rows[0].size();
  std::vector<torch::Tensor> out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() < len) {
      throw std::runtime_error(o.tokens + ": sequence " + std::to_string(r + 1) + " has " +
                               std::to_string(rows[r].size()) + " ids, fewer than the length " +
                               std::to_string(len) + " (set --length)");
    }
    rows[r].resize(len);
    out.push_back(torch::tensor(rows[r]));
  }
  return torch::stack(out);
}

void check_options(const HeadsOptions& o) {
  const bool run = !o.run.empty(), hf = !o.weights.empty() || !o.config.empty();
  if (run == hf) throw std::invalid_argument("give either --run RUN_DIR or --config and --weights");
  if (hf && (o.config.empty() || o.weights.empty()))
    throw std::invalid_argument("--config and --weights go together");
  if (o.checkpoints != "all" && o.checkpoints != "last")
    throw std::invalid_argument("--checkpoints must be all or last, got '" + o.checkpoints + "'");
  if (o.samples < 1 || o.samples > 100000)
    throw std::invalid_argument("--samples must be in 1..100000, got " + std::to_string(o.samples));
  if (o.length != 0 && (o.length < 3 || o.length > 65536))
    throw std::invalid_argument("--length must be in 3..65536, got " + std::to_string(o.length));
  if (!(o.tau > 0) || !std::isfinite(o.tau))
    throw std::invalid_argument("--tau must be a positive number");
}

}  // namespace

nlohmann::json run_heads(const HeadsOptions& o) {
  check_options(o);
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json result = {{"samples", o.samples},
                           {"tau", o.tau},
                           {"layer_index", "0-based"},
                           {"checkpoints", nlohmann::json::array()}};
  if (!o.run.empty()) {
    std::vector<std::filesystem::path> files = list_checkpoints(o.run);
    if (files.empty()) throw std::runtime_error("run '" + o.run + "' has no checkpoints");
    if (o.checkpoints == "last") files = {files.back()};
    result["source"] = {{"run", o.run}};
    Progress progress("heads", static_cast<std::int64_t>(files.size()));
    torch::Tensor ids;
    for (std::size_t i = 0; i < files.size(); ++i) {
      LoadedModel m = load_trained_model(o.run, files[i]);
      if (!ids.defined()) {
        ids = run_samples(m.info.config, o);
        result["task"] = std::string(task_name(m.info.config.task));
      }
      const auto scores = score_heads(m.model, ids, o.tau);
      result["checkpoints"].push_back({{"step", m.info.step},
                                       {"file", files[i].filename().string()},
                                       {"heads", heads_json(scores)}});
      progress.update(static_cast<std::int64_t>(i + 1));
    }
    progress.finish();
    result["length"] = ids.size(1);
  } else {
    const ModelConfig cfg = model_config_from_hf(read_hf_config(o.config));
    Transformer model(cfg);
    load_hf_weights(model, SafetensorsFile::open(o.weights));
    const auto ids = token_samples(o, cfg.vocab);
    if (cfg.pos == PosEncoding::kLearned && ids.size(1) > cfg.max_positions) {
      throw std::invalid_argument("--length " + std::to_string(ids.size(1)) +
                                  " exceeds the model's " + std::to_string(cfg.max_positions) +
                                  " positions");
    }
    result["source"] = {{"config", o.config}, {"weights", o.weights}, {"tokens", o.tokens}};
    result["length"] = ids.size(1);
    result["checkpoints"].push_back({{"step", nullptr},
                                     {"file", o.weights},
                                     {"heads", heads_json(score_heads(model, ids, o.tau))}});
  }
  nlohmann::json final_pos = nlohmann::json::array(), final_sym = nlohmann::json::array();
  for (const auto& h : result["checkpoints"].back()["heads"]) {
    const std::string label = h["label"];
    if (label == "positional") final_pos.push_back(head_name(h, true));
    if (label == "symbolic") final_sym.push_back(head_name(h, true));
  }
  result["final"] = {{"positional", final_pos}, {"symbolic", final_sym}};
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  write_output(o.json, result.dump(2) + "\n");
  if (!o.plot.empty()) {
    const std::string what =
        result.contains("task") ? result["task"].get<std::string>() + " run" : "model";
    render_figure(heads_figure(result, what), o.plot);
  }
  return result;
}

Figure heads_figure(const nlohmann::json& result, const std::string& title) {
  const auto& ckpts = result["checkpoints"];
  const auto& first = ckpts[0]["heads"];
  const bool multi_head = first.size() > 1 && first.back()["head"].get<int>() > 0;
  Figure f;
  for (const char* score : {"positional", "symbolic"}) {
    Panel p;
    p.title = title + ": " + score + " score";
    p.xlabel = "checkpoint (training step)";
    p.ylabel = "layer";
    Heatmap& h = p.heatmap;
    h.z_label = std::string(score) + " score";
    for (const auto& head : first) h.y_labels.push_back(head_name(head, multi_head));
    h.z.assign(first.size(), {});
    for (const auto& c : ckpts) {
      h.x_labels.push_back(c["step"].is_null() ? std::string("final")
                                               : std::to_string(c["step"].get<std::int64_t>()));
      for (std::size_t r = 0; r < first.size(); ++r)
        h.z[r].push_back(c["heads"][r][score].get<double>());
    }
    f.panels.push_back(std::move(p));
  }
  f.width = 1100;
  f.height = std::max(420, 28 * static_cast<int>(first.size()) + 140);
  return f;
}

}  // namespace posbias
