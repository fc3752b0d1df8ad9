#include "experiments/retrieval/kv_eval_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/retrieval/depth_eval.h"
#include "experiments/retrieval/depth_figures.h"
#include "posbias/arch/logn_scale.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/model/attention_calibration.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/sink_token.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// eval --calibrate's own refusals: a strength outside [0, 1], blockwise attention (the score hook
// is dense only), a null sink (its share of a row has no key) and a BOS sink token (the
// content-free input would lack it).
void check_kv_calibrate(const KvEvalOptions& o, const TrainConfig& c) {
  if (!(*o.calibrate >= 0 && *o.calibrate <= 1))
    throw std::invalid_argument(
        fmt::format("--calibrate-strength must be in [0, 1], got {}", *o.calibrate));
  if (o.attention == AttentionPath::kBlockwise)
    throw std::invalid_argument(
        "--calibrate runs on dense attention only: drop --attention blockwise");
  if (c.null_sink)
    throw std::invalid_argument("--calibrate does not apply to a run trained with --null-sink");
  if (c.sink)
    throw std::invalid_argument("--calibrate does not apply to a run trained with --sink");
}

// The checks that need no model: count, threshold, depths, and each length against the kv
// format and a learned position table.
void check_kv_eval(const KvEvalOptions& o, const TrainConfig& c, const std::vector<int>& lengths) {
  if (o.count < 1 || o.count > 1'000'000)
    throw std::invalid_argument(
        fmt::format("--count must be in 1..1000000 examples per cell, got {}", o.count));
  check_eval_logn_scale(o.logn_scale, c.logn_scale);  // a run trained with it
  ModelConfig m = c.model_config();
  m.rope_scaling = o.rope_scaling;
  if (o.logn_scale) m.logn_scale = o.logn_scale;
  m.validate();  // --rope-scaling without rotary positions, --logn-scale with ALiBi or a sink
  if (o.calibrate) check_kv_calibrate(o, c);
  for (int len : lengths) {
    if (len < kKvMinLength || len > kKvMaxLength)
      throw std::invalid_argument(fmt::format(
          "--lengths must be in {}..{} tokens for kv (at least {} pairs, distinct keys), got {}",
          kKvMinLength, kKvMaxLength, kKvMinPairs, len));
    const int extra = kKvValueTokens - 1 + sink_tokens(c.sink);
    if (m.position_limit() && kv_input_length(len, c.sink) > *m.position_limit())
      throw std::invalid_argument(fmt::format(
          "--lengths {} is past the run's learned position table ({} positions: the model reads "
          "L + {} tokens); give lengths up to {}",
          len, m.max_positions, extra, m.max_positions - extra));
  }
}

}  // namespace

bool is_kv_run(const std::string& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(run_dir) / "train.json", ec))
    return false;
  return read_run_header(run_dir).config.task == Task::kKv;
}

std::vector<int> kv_eval_lengths(const KvEvalOptions& o, const TrainConfig& c) {
  std::vector<int> lengths;
  if (!o.lengths.empty()) {
    for (std::int64_t len : o.lengths) {
      if (len < 1 || len > kKvMaxLength)
        throw std::invalid_argument(fmt::format("--lengths must be in {}..{} tokens for kv, got {}",
                                                kKvMinLength, kKvMaxLength, len));
      lengths.push_back(static_cast<int>(len));
    }
  } else {
    const ModelConfig m = c.model_config();
    for (int k : {1, 2, 4}) {
      const int len = k * c.length;
      if (m.position_limit() && kv_input_length(len, c.sink) > *m.position_limit()) continue;
      lengths.push_back(len);
    }
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  return lengths;
}

KvEvalResult measure_kv_eval(const KvEvalOptions& o, const std::filesystem::path& checkpoint) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  const TrainConfig header_config = read_run_header(o.run).config;
  if (header_config.task != Task::kKv)
    throw std::invalid_argument("'" + o.run + "' is not a kv run (train --task kv)");
  const std::vector<int> lengths = kv_eval_lengths(o, header_config);
  check_kv_eval(o, header_config, lengths);
  check_depth_accuracy_inputs(lengths, o.depths, o.threshold);
  KvEvalResult r;
  // A cell's examples are L ids; the model reads the input, L + the value's tokens − 1.
  const bool sink = header_config.sink;  // a sink run's model reads its sink token first
  const auto shape = [sink](int len) { return DepthEvalShape{len, kv_input_length(len, sink)}; };
  r.attention = plan_depth_eval(header_config, lengths, shape, o);
  LoadedModel loaded = load_trained_model(o.run, checkpoint);
  loaded.model->set_rope_scaling(o.rope_scaling);
  r.rope_scaling = o.rope_scaling;
  if (o.logn_scale) loaded.model->set_logn_scale(o.logn_scale);  // none: the run's own
  r.logn_scale = o.logn_scale;
  r.calibrate = o.calibrate;
  std::optional<CalibratedAttention> calibrated;  // eval --calibrate: every cell below
  if (o.calibrate) {
    if (std::count(r.attention.begin(), r.attention.end(), AttentionPath::kBlockwise) > 0)
      throw std::invalid_argument(
          "--calibrate runs on dense attention only, and a length here needs blockwise attention "
          "under the memory budget: give shorter --lengths or a smaller --count");
    // The longest input the cells read, L + the value's tokens − 1 (sink runs are refused), on
    // the filler "_" at every position.
    const int longest = *std::max_element(lengths.begin(), lengths.end()) + kKvValueTokens - 1;
    calibrated.emplace(
        loaded.model,
        estimate_position_components(loaded.model, kv_token_id(kKvFiller), longest, *o.calibrate),
        *o.calibrate);
  }
  r.run = o.run;
  r.checkpoint = loaded.path.string();
  r.step = loaded.info.step;
  r.config = loaded.info.config;
  r.count = o.count;
  r.seed = o.seed;
  for (int len : lengths) r.pairs.push_back(kv_pairs(len));

  measure_depth_cells(
      r, lengths, o, [&](AttentionPath a) { loaded.model->set_attention(a); },
      [&](int length, double depth) {
        std::vector<KvExample> examples;
        examples.reserve(static_cast<std::size_t>(o.count));
        for (std::int64_t e = 0; e < o.count; ++e)
          examples.push_back(kv_depth_example(length, depth, e, o.seed));
        const int pairs = examples.front().pairs;
        return DepthScore{kv_exact_matches(loaded.model, examples,
                                           eval_batch_size(kv_input_length(length, sink)), sink),
                          1.0 / pairs};
      });
  return r;
}

DepthEvalRecord kv_eval_record(const KvEvalResult& r) {
  DepthEvalRecord record = depth_eval_record(AnswerInputs::kKv, r);
  record.pairs.emplace();
  for (std::size_t l = 0; l < r.accuracy.lengths.size(); ++l)
    (*record.pairs)[std::to_string(r.accuracy.lengths[l])] = r.pairs[l];
  record.chance_rule = "1/n: a uniform guess among the n values in the context";
  record.queried_rule = "queried pair i = round(depth/100 * (n - 1)), halves away from zero";
  return record;
}

nlohmann::json to_json(const KvEvalResult& r) { return to_json(kv_eval_record(r)); }

std::vector<CsvColumn<DepthCellIndex>> kv_eval_columns(const KvEvalResult& r) {
  const DepthAccuracy& a = r.accuracy;
  using I = DepthCellIndex;
  const std::vector<CsvColumn<I>> own = {
      {"length", [&a](const I& i) { return std::to_string(a.lengths[i.length]); }},
      {"pairs", [&r](const I& i) { return std::to_string(r.pairs[i.length]); }},
      {"depth", [&a](const I& i) { return depth_key(a.depths[i.depth]); }},
      {"queried",
       [&](const I& i) {
         return std::to_string(kv_queried_at_depth(a.depths[i.depth], r.pairs[i.length]));
       }},
  };
  return csv_concat(own, depth_cell_columns(a));
}

Figure kv_heatmap_figure(const DepthEvalRecord& r) {
  // Short enough for the narrowest figure (three lengths): gnuplot clips a longer one.
  return depth_heatmap_figure(
      depth_accuracy_of(r),
      fmt::format("kv, {} {}, step {}: exact match ({} per cell)", to_string(r.config.arch),
                  to_string(r.config.model_config().pos), r.step, r.count),
      "depth of the queried pair (%)");
}

Figure kv_depth_figure(const DepthEvalRecord& r) {
  if (!r.pairs) throw std::invalid_argument("eval field 'pairs' is missing (a kv result has it)");
  std::vector<std::string> titles;
  for (int length : r.lengths) {
    const auto pairs = r.pairs->find(std::to_string(length));
    if (pairs == r.pairs->end())
      throw std::invalid_argument("eval field 'pairs' has no " + std::to_string(length));
    titles.push_back(fmt::format("L = {} ({} pairs)", length, pairs->second));
  }
  return depth_curve_figure(depth_accuracy_of(r), titles, "depth of the queried pair (%)",
                            "chance 1/n");
}

std::vector<KvEvalResult> run_kv_eval(const KvEvalOptions& o) {
  if (o.run.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  std::vector<KvEvalResult> results;
  for (const RunCheckpoint& c : select_checkpoints(o.run, o.checkpoints))
    results.push_back(measure_kv_eval(o, c.path));
  std::vector<DepthEvalOutput> outputs;
  for (const KvEvalResult& r : results)
    outputs.push_back({&r, kv_eval_record(r), kv_eval_columns(r)});
  write_depth_eval(AnswerInputs::kKv, o, outputs);
  return results;
}

}  // namespace posbias
