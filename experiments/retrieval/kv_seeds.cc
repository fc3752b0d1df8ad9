#include "experiments/retrieval/kv_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/retrieval/depth_eval_record.h"
#include "experiments/retrieval/kv_seeds_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {
namespace {

struct KvSeedFile {
  AnswerInputs task = AnswerInputs::kKv;
  DepthAccuracy accuracy;
  RunConfig run;

  // The U verdict at length index l, pooled at l = the number of lengths.
  const UVerdict& u(std::size_t l) const {
    return l < accuracy.u_by_length.size() ? accuracy.u_by_length[l] : accuracy.u_pooled;
  }
};

KvSeedFile read_kv_seed_file(const std::string& source) {
  const nlohmann::json j = read_result_json(source);
  refuse_eval_steps(j, source);
  const DepthEvalRecord record = read_result_table(depth_eval_record_from_json, j, source);
  return {record.task, read_result_table(depth_accuracy_of, record, source),
          run_config(source, record.run, &record.config)};
}

}  // namespace

bool is_kv_eval_file(const std::string& path) {
  try {
    const EvalTask task = eval_file_kind(read_result_json(path)).task;
    return task == EvalTask::kKv || task == EvalTask::kPasskey;
  } catch (const std::exception&) {
    return false;  // not ours to judge: the hop summary reports what is wrong with it
  }
}

UOverSeeds u_over_seeds(std::vector<double> middle_minus_start,
                        std::vector<double> middle_minus_end) {
  UOverSeeds u;
  u.middle_minus_start = seed_statistic(std::move(middle_minus_start));
  u.middle_minus_end = seed_statistic(std::move(middle_minus_end));
  const SeedInterval& a = u.middle_minus_start.interval;
  const SeedInterval& b = u.middle_minus_end.interval;
  if (a.n < 2 || b.n < 2 || !std::isfinite(a.high) || !std::isfinite(b.high))
    u.verdict = "undetermined";
  else
    u.verdict = a.high < 0 && b.high < 0 ? "U" : "no U";
  return u;
}

KvSeedsResult summarize_kv_seeds(const KvSeedsOptions& o) {
  if (o.eval.size() < 2 || o.eval.size() > kMaxSeeds)
    throw std::invalid_argument(fmt::format(
        "give 2..{} kv eval results, one per training seed (got {})", kMaxSeeds, o.eval.size()));
  require_distinct_files(o.eval);
  std::vector<KvSeedFile> files;
  std::vector<RunConfig> runs;
  for (const std::string& f : o.eval) {
    files.push_back(read_kv_seed_file(f));
    runs.push_back(files.back().run);
    const KvSeedFile& a = files.front();
    const KvSeedFile& b = files.back();
    if (b.task != a.task)
      throw std::runtime_error("'" + f + "' is a " + to_string(b.task) + " result and '" +
                               o.eval.front() + "' a " + to_string(a.task) +
                               " one; give the seeds of one configuration");
    if (b.accuracy.lengths != a.accuracy.lengths || b.accuracy.depths != a.accuracy.depths ||
        b.accuracy.threshold != a.accuracy.threshold)
      throw std::runtime_error("'" + f + "' and '" + o.eval.front() +
                               "' differ in lengths, depths or threshold; evaluate every seed "
                               "with the same --lengths, --depths and --effective-threshold");
  }
  KvSeedsResult r;
  r.task = files.front().task;
  r.files = o.eval;
  r.lengths = files.front().accuracy.lengths;
  r.depths = files.front().accuracy.depths;
  r.threshold = files.front().accuracy.threshold;
  r.unchecked = require_one_configuration({runs}, &r.unchecked_file);
  auto over = [&](auto value) {
    std::vector<double> v;
    for (const KvSeedFile& f : files) v.push_back(value(f));
    return v;
  };
  for (std::size_t l = 0; l <= r.lengths.size(); ++l) {
    UOverSeeds u =
        u_over_seeds(over([l](const KvSeedFile& f) { return f.u(l).middle_minus_start.estimate; }),
                     over([l](const KvSeedFile& f) { return f.u(l).middle_minus_end.estimate; }));
    if (l == r.lengths.size()) {
      r.u_pooled = std::move(u);
      break;
    }
    r.u_by_length.push_back(std::move(u));
    r.mean_accuracy.push_back(
        seed_statistic(over([l](const KvSeedFile& f) { return f.accuracy.mean_accuracy[l]; })));
    std::vector<SeedStatistic>& row = r.cells.emplace_back();
    for (std::size_t d = 0; d < r.depths.size(); ++d)
      row.push_back(seed_statistic(
          over([l, d](const KvSeedFile& f) { return f.accuracy.cells[l][d].accuracy; })));
  }
  for (const KvSeedFile& f : files) r.effective_lengths.push_back(f.accuracy.effective_length);
  std::vector<std::optional<int>> sorted = r.effective_lengths;
  std::sort(sorted.begin(), sorted.end());  // nullopt sorts first: below the shortest
  r.effective_length_median = sorted[(sorted.size() - 1) / 2];
  return r;
}

nlohmann::json to_json(const KvSeedsResult& r) { return to_json(kv_seeds_record(r)); }

std::string kv_seeds_csv(const KvSeedsResult& r) {
  using I = DepthCellIndex;
  const auto interval = [&r](const I& i) -> const SeedInterval& {
    return r.cells[i.length][i.depth].interval;
  };
  const std::vector<CsvColumn<I>> columns = csv_concat(
      csv_concat({{"length", [&r](const I& i) { return std::to_string(r.lengths[i.length]); }},
                  {"depth", [&r](const I& i) { return fmt::format("{}", r.depths[i.depth]); }}},
                 csv_mapped_columns<I>(interval_columns(), interval)),
      {{"seeds", [interval](const I& i) { return std::to_string(interval(i).n); }}});
  std::vector<I> cells;
  for (std::size_t l = 0; l < r.lengths.size(); ++l)
    for (std::size_t d = 0; d < r.depths.size(); ++d) cells.push_back({l, d});
  return csv_text(columns, cells);
}

void render_kv_seeds_figures(const KvSeedsResult& r, const std::string& stem) {
  const std::string seeds = std::to_string(r.files.size()) + " seeds";
  // The depth axis as each run's eval figures name it (kv_eval_command, passkey_eval_command).
  const std::string depth_label = r.task == AnswerInputs::kPasskey
                                      ? "depth of the queried needle (%)"
                                      : "depth of the queried pair (%)";
  Panel heat;
  heat.title = to_string(r.task) + ": mean exact match over " + seeds;
  heat.xlabel = "context length (tokens)";
  heat.ylabel = depth_label;
  for (int len : r.lengths) heat.heatmap.x_labels.push_back(std::to_string(len));
  for (double d : r.depths) heat.heatmap.y_labels.push_back(fmt::format("{}", d));
  for (std::size_t d = 0; d < r.depths.size(); ++d) {
    std::vector<double>& row = heat.heatmap.z.emplace_back();
    for (std::size_t l = 0; l < r.lengths.size(); ++l) row.push_back(r.cells[l][d].interval.mean);
  }
  heat.heatmap.z_label = "mean exact-match accuracy";
  Figure h;
  h.panels = {heat};
  h.width = std::max(560, 160 + 90 * static_cast<int>(r.lengths.size()));
  render_figure(h, stem + "_heatmap");
  Figure f;
  for (std::size_t l = 0; l < r.lengths.size(); ++l) {
    Panel p;
    p.title = fmt::format("L = {} (band cut to [0, 1])", r.lengths[l]);
    p.xlabel = depth_label;
    p.ylabel = "exact-match accuracy";
    p.ymin = 0;
    p.ymax = 1.02;
    std::vector<SeedInterval> y;
    for (const SeedStatistic& s : r.cells[l]) y.push_back(s.interval);
    p.series = {band_series("mean over " + seeds + " (t 95%)", r.depths, y)};
    p.series.front().style = "linespoints";
    // Accuracy is a proportion: the band is cut to [0, 1], so it stays below the key.
    for (double& v : p.series.front().y_low) v = std::max(0.0, v);
    for (double& v : p.series.front().y_high) v = std::min(1.0, v);
    f.panels.push_back(std::move(p));
  }
  f.width = 380 * static_cast<int>(std::max<std::size_t>(1, r.lengths.size()));
  f.height = 420;
  render_figure(f, stem + "_depth");
}

KvSeedsResult run_kv_seeds(const KvSeedsOptions& o) {
  KvSeedsResult r = summarize_kv_seeds(o);
  // The JSON for a pipe or a file; on a terminal this line instead (core/json_result.h).
  write_json_result(o.json, to_json(r).dump(2) + "\n", [&r] {
    return fmt::format("seeds: {} {} seeds; U verdict pooled over lengths: {}\n", r.files.size(),
                       to_string(r.task), r.u_pooled.verdict);
  });
  if (!o.csv.empty()) write_file_atomic(o.csv, kv_seeds_csv(r));
  if (!o.plot.empty()) render_kv_seeds_figures(r, o.plot);
  note_unchecked_configurations(r.unchecked, o.eval.size(), r.unchecked_file);
  return r;
}

}  // namespace posbias
