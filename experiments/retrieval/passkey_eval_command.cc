#include "experiments/retrieval/passkey_eval_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/retrieval/depth_eval.h"
#include "experiments/retrieval/depth_figures.h"
#include "posbias/arch/logn_scale.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/tasks/passkey_task.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"
#include "posbias/train/passkey_batch.h"
#include "posbias/train/text_run.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// The lengths evaluated: the options', or the training length, 2× and 4× (with learned positions
// only those the position table holds). Ascending, each refused in one line past a learned table.
std::vector<int> passkey_eval_lengths(const PasskeyEvalOptions& o, const TrainConfig& c) {
  check_eval_logn_scale(o.logn_scale, c.logn_scale);  // a run trained with it
  ModelConfig m = c.model_config();
  m.rope_scaling = o.rope_scaling;
  if (o.logn_scale) m.logn_scale = o.logn_scale;
  m.validate();  // --rope-scaling without rotary positions, --logn-scale with ALiBi or a sink
  std::vector<int> lengths;
  if (o.lengths.empty()) {
    for (int k : {1, 2, 4})
      if (!m.position_limit() || k * c.length <= *m.position_limit())
        lengths.push_back(k * c.length);
  }
  for (std::int64_t len : o.lengths) {
    if (len < 2 || len > 1'000'000)
      throw std::invalid_argument(
          fmt::format("--lengths must be in 2..1000000 tokens, got {}", len));
    if (m.position_limit() && len > *m.position_limit())
      throw std::invalid_argument(fmt::format(
          "--lengths {} is past the run's learned position table ({} positions); give lengths up "
          "to {}",
          len, m.max_positions, m.max_positions));
    lengths.push_back(static_cast<int>(len));
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  return lengths;
}

// One checkpoint's accuracy by depth and length on the passkey examples.
PasskeyEvalResult measure_checkpoint(const PasskeyEvalOptions& o,
                                     const std::filesystem::path& checkpoint,
                                     const std::vector<int>& lengths, const PasskeyCodec& codec,
                                     const TextRunData& text, PasskeyEvalResult r) {
  LoadedModel loaded = load_trained_model(o.run, checkpoint);
  loaded.model->set_rope_scaling(o.rope_scaling);
  r.rope_scaling = o.rope_scaling;
  if (o.logn_scale) loaded.model->set_logn_scale(o.logn_scale);  // none: the run's own
  r.logn_scale = o.logn_scale;
  r.run = o.run;
  r.checkpoint = loaded.path.string();
  r.step = loaded.info.step;
  r.config = loaded.info.config;
  r.count = o.count;
  r.seed = o.seed;

  measure_depth_cells(
      r, lengths, o, [&](AttentionPath a) { loaded.model->set_attention(a); },
      [&](int length, double depth) {
        std::vector<PasskeyExample> examples;
        examples.reserve(static_cast<std::size_t>(o.count));
        for (std::int64_t e = 0; e < o.count; ++e)
          examples.push_back(passkey_depth_example(codec, text.streams.heldout, length, r.needles,
                                                   depth, e, o.seed));
        return DepthScore{passkey_exact_matches(loaded.model, examples, eval_batch_size(length)),
                          1.0 / r.needles};
      });
  return r;
}

}  // namespace

bool is_passkey_run(const std::string& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(run_dir) / "train.json", ec))
    return false;
  const TrainConfig c = read_run_header(run_dir).config;
  return c.task == Task::kText && c.needle_fraction > 0;
}

std::vector<PasskeyEvalResult> measure_passkey_eval(const PasskeyEvalOptions& o,
                                                    const std::vector<RunCheckpoint>& checkpoints) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  const RunHeader header = read_run_header(o.run);
  const TrainConfig& c = header.config;
  if (c.task != Task::kText || c.needle_fraction <= 0)
    throw std::invalid_argument("'" + o.run +
                                "' is not a passkey run (train --task text --needle-fraction F)");
  if (o.count < 1 || o.count > 1'000'000)
    throw std::invalid_argument(
        fmt::format("--count must be in 1..1000000 examples per cell, got {}", o.count));
  const int names = static_cast<int>(passkey_names().size());
  if (o.needles < 0 || o.needles > names)
    throw std::invalid_argument(
        fmt::format("--needles must be in 1..{}, got {}", names, o.needles));
  const std::vector<int> lengths = passkey_eval_lengths(o, c);
  check_depth_accuracy_inputs(lengths, o.depths, o.threshold);
  PasskeyEvalResult planned;  // what every checkpoint's result shares
  planned.needles = o.needles > 0 ? o.needles : c.needles;
  const TextRunData text =
      prepare_text_run(c, o.run, /*fresh=*/false, header.corpus_fingerprint.value_or(""));
  const PasskeyCodec codec(text.tokenizer);
  for (int len : lengths) {
    codec.check_fits(len, planned.needles);
    if (static_cast<std::int64_t>(text.streams.heldout.size()) <= len + 1)
      throw std::invalid_argument(
          fmt::format("--lengths {} is longer than the held-out text ({} ids)", len,
                      text.streams.heldout.size()));
  }
  // A cell's examples are L + 1 ids (the window with the answer); the model reads L.
  const auto shape = [](int len) { return DepthEvalShape{len + 1, len}; };
  planned.attention = plan_depth_eval(c, lengths, shape, o);
  std::vector<PasskeyEvalResult> results;
  for (const RunCheckpoint& checkpoint : checkpoints)
    results.push_back(measure_checkpoint(o, checkpoint.path, lengths, codec, text, planned));
  return results;
}

DepthEvalRecord passkey_eval_record(const PasskeyEvalResult& r) {
  DepthEvalRecord record = depth_eval_record(AnswerInputs::kPasskey, r);
  record.needles = r.needles;
  record.chance_rule = "1/K: a uniform guess among the K numbers in the context";
  record.depth_rule =
      "queried needle before Brown id round(depth/100 * F) of the F held-out Brown ids, halves "
      "away from zero";
  return record;
}

nlohmann::json to_json(const PasskeyEvalResult& r) { return to_json(passkey_eval_record(r)); }

std::vector<CsvColumn<DepthCellIndex>> passkey_eval_columns(const PasskeyEvalResult& r) {
  const DepthAccuracy& a = r.accuracy;
  using I = DepthCellIndex;
  const std::vector<CsvColumn<I>> own = {
      {"length", [&a](const I& i) { return std::to_string(a.lengths[i.length]); }},
      {"needles", [&r](const I&) { return std::to_string(r.needles); }},
      {"depth", [&a](const I& i) { return depth_key(a.depths[i.depth]); }},
  };
  return csv_concat(own, depth_cell_columns(a));
}

Figure passkey_heatmap_figure(const DepthEvalRecord& r) {
  return depth_heatmap_figure(
      depth_accuracy_of(r),
      fmt::format("passkey, {} {}, step {}: exact match ({} per cell)", to_string(r.config.arch),
                  to_string(r.config.model_config().pos), r.step, r.count),
      "depth of the queried needle (%)");
}

Figure passkey_depth_figure(const DepthEvalRecord& r) {
  if (!r.needles)
    throw std::invalid_argument("eval field 'needles' is missing (a passkey result has it)");
  const std::int64_t needles = *r.needles;
  std::vector<std::string> titles;
  for (int len : r.lengths)
    titles.push_back(fmt::format("L = {} ({} needle{})", len, needles, needles > 1 ? "s" : ""));
  return depth_curve_figure(depth_accuracy_of(r), titles, "depth of the queried needle (%)",
                            "chance 1/K");
}

std::vector<PasskeyEvalResult> run_passkey_eval(const PasskeyEvalOptions& o) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  const std::vector<PasskeyEvalResult> results =
      measure_passkey_eval(o, select_checkpoints(o.run, o.checkpoints));
  std::vector<DepthEvalOutput> outputs;
  for (const PasskeyEvalResult& r : results)
    outputs.push_back({&r, passkey_eval_record(r), passkey_eval_columns(r)});
  write_depth_eval(AnswerInputs::kPasskey, o, outputs);
  return results;
}

}  // namespace posbias
