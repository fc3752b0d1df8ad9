#include "experiments/hops/hop_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/hops/hop_seed_files.h"
#include "experiments/hops/hop_seeds_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_number.h"
#include "posbias/core/json_result.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {
namespace {

// The keys every map has, in order.
template <typename Map>
std::vector<typename Map::key_type> common_keys(const std::vector<const Map*>& maps) {
  std::vector<typename Map::key_type> keys;
  for (const auto& [k, v] : *maps.front()) keys.push_back(k);
  std::erase_if(keys, [&](const auto& k) {
    return std::any_of(maps.begin(), maps.end(), [&](const Map* m) { return !m->count(k); });
  });
  return keys;
}

template <typename Map>
double value_or_nan(const Map& m, const typename Map::key_type& k) {
  const auto it = m.find(k);
  return it == m.end() ? kNaN : it->second;
}

// Reads each file of one option with `parse`; every file must be of `task` (set by the first
// file read of any option). The runs the files measured go to a new entry of `runs`.
template <typename Parse>
auto read_all(const std::vector<std::string>& files, Parse parse, std::optional<Task>& task,
              std::string& task_file, std::vector<std::vector<RunConfig>>& runs) {
  std::vector<decltype(parse(nlohmann::json(), std::string()))> out;
  runs.emplace_back();
  for (const std::string& f : files) {
    out.push_back(parse(read_result_json(f), f));
    runs.back().push_back(out.back().run);
    if (!task) task = out.back().task, task_file = f;
    if (out.back().task != *task)
      throw std::runtime_error(
          fmt::format("'{}' is a {} result but '{}' is {}: give the files of "
                      "one task",
                      f, task_name(out.back().task), task_file, task_name(*task)));
  }
  return out;
}

// The steps every seed has (each seed's `steps` increase) into `steps`, and per seed its entry
// of `rows` at each of them: at[s][i] is seed s at steps[i].
template <typename Seed, typename Row>
std::vector<std::vector<const Row*>> at_common_steps(const std::vector<Seed>& seeds,
                                                     std::vector<Row> Seed::*rows,
                                                     std::vector<std::int64_t>& steps) {
  steps = seeds.front().steps;
  for (const Seed& s : seeds)
    std::erase_if(steps, [&](std::int64_t step) {
      return !std::binary_search(s.steps.begin(), s.steps.end(), step);
    });
  std::vector<std::vector<const Row*>> at(seeds.size());
  for (std::size_t s = 0; s < seeds.size(); ++s)
    for (std::int64_t step : steps) {
      const auto it = std::lower_bound(seeds[s].steps.begin(), seeds[s].steps.end(), step);
      at[s].push_back(&(seeds[s].*rows)[static_cast<std::size_t>(it - seeds[s].steps.begin())]);
    }
  return at;
}

HopTraining summarize_training(const std::vector<HopSummaryFile>& seeds) {
  HopTraining t;
  std::vector<const HopValues*> maps;
  for (const HopSummaryFile& s : seeds) {
    maps.insert(maps.end(), {&s.crossing_90, &s.crossing_99, &s.final_accuracy});
    t.training_seeds.push_back(s.run.seed);
  }
  auto per_seed = [&](int hop, HopValues HopSummaryFile::*m) {
    std::vector<double> v;
    for (const HopSummaryFile& s : seeds) v.push_back((s.*m).at(hop));
    return seed_statistic(std::move(v));
  };
  for (int hop : common_keys(maps)) {
    t.hops.push_back(hop_name(hop));
    t.crossing_90.push_back(per_seed(hop, &HopSummaryFile::crossing_90));
    t.crossing_99.push_back(per_seed(hop, &HopSummaryFile::crossing_99));
    t.final_accuracy.push_back(per_seed(hop, &HopSummaryFile::final_accuracy));
  }
  std::vector<double> seconds;
  for (const HopSummaryFile& s : seeds) seconds.push_back(s.train_seconds);
  t.train_seconds = seed_statistic(std::move(seconds));
  return t;
}

HopCurves summarize_curves(const std::vector<HopMetricsFile>& seeds) {
  HopCurves c;
  const auto at = at_common_steps(seeds, &HopMetricsFile::accuracy, c.steps);
  if (c.steps.empty()) throw std::runtime_error("the metrics files share no logged step");
  std::vector<const HopValues*> rows;
  for (const auto& seed : at) rows.insert(rows.end(), seed.begin(), seed.end());
  const std::vector<int> hops = common_keys(rows);
  if (hops.empty()) throw std::runtime_error("the metrics files share no hop at every step");
  for (int hop : hops) c.hops.push_back(hop_name(hop));
  for (std::size_t i = 0; i < c.steps.size(); ++i) {
    std::vector<SeedStatistic> row;
    for (int hop : hops) {
      std::vector<double> v;
      for (const auto& seed : at) v.push_back(seed[i]->at(hop));
      row.push_back(seed_statistic(std::move(v)));
    }
    c.accuracy.push_back(std::move(row));
  }
  return c;
}

// The table over the lengths and hops every seed has; chance from the seeds that logged it.
HopTable hop_table(const std::vector<const LengthTable*>& accuracy,
                   const std::vector<const LengthTable*>& chance) {
  HopTable t;
  t.lengths = common_keys(accuracy);
  std::vector<const HopValues*> rows;
  for (const LengthTable* seed : accuracy)
    for (std::int64_t length : t.lengths) rows.push_back(&seed->at(length));
  if (rows.empty()) throw std::runtime_error("the eval results share no input length");
  const std::vector<int> hops = common_keys(rows);
  if (hops.empty()) throw std::runtime_error("the eval results share no hop");
  for (int hop : hops) t.hops.push_back(hop_name(hop));
  for (std::int64_t length : t.lengths) {
    std::vector<HopCell> row;
    for (int hop : hops) {
      std::vector<double> values;
      double chance_sum = 0;
      int chance_n = 0;
      for (std::size_t s = 0; s < accuracy.size(); ++s) {
        values.push_back(accuracy[s]->at(length).at(hop));
        const auto it = chance[s]->find(length);
        const double c = it == chance[s]->end() ? kNaN : value_or_nan(it->second, hop);
        if (std::isfinite(c)) chance_sum += c, ++chance_n;
      }
      row.push_back({seed_statistic(std::move(values)), chance_n ? chance_sum / chance_n : kNaN});
    }
    t.cells.push_back(std::move(row));
  }
  return t;
}

HopHeadsSummary summarize_heads(const std::vector<HopHeadsFile>& seeds,
                                const std::vector<std::string>& files) {
  HopHeadsSummary h;
  for (std::size_t s = 1; s < seeds.size(); ++s)
    if (seeds[s].heads != seeds.front().heads)
      throw std::runtime_error(
          fmt::format("'{}' lists other heads than '{}': give runs of one "
                      "model shape",
                      files[s], files.front()));
  h.heads = seeds.front().heads;
  // reads[s][i]: seed s at the common step i.
  const auto reads = at_common_steps(seeds, &HopHeadsFile::at, h.steps);
  if (h.steps.empty()) throw std::runtime_error("the heads --run results share no checkpoint step");
  for (std::size_t i = 0; i < h.steps.size(); ++i) {
    std::vector<SeedStatistic> positional, symbolic;
    for (std::size_t k = 0; k < h.heads.size(); ++k) {
      std::vector<double> p, q;
      for (const auto& seed : reads) p.push_back((*seed[i])[k].positional);
      for (const auto& seed : reads) q.push_back((*seed[i])[k].symbolic);
      positional.push_back(seed_statistic(std::move(p)));
      symbolic.push_back(seed_statistic(std::move(q)));
    }
    h.positional.push_back(std::move(positional));
    h.symbolic.push_back(std::move(symbolic));
  }
  for (std::size_t k = 0; k < h.heads.size(); ++k) {
    std::vector<HeadLabel> last;
    std::vector<double> settled;
    for (const auto& seed : reads) {
      std::vector<HeadLabel> labels;
      for (const auto* at : seed) labels.push_back((*at)[k].label);
      settled.push_back(static_cast<double>(settled_step(h.steps, labels)));
      last.push_back(labels.back());
    }
    h.labels.push_back(std::move(last));
    h.settled_step.push_back(seed_statistic(std::move(settled)));
  }
  // The thresholds every seed lists (compared as written: 0.85 is 0.85 in every file).
  for (const HopThresholdLabels& t : seeds.front().thresholds) {
    std::vector<const HopThresholdLabels*> at;
    for (const HopHeadsFile& s : seeds) {
      const auto it =
          std::find_if(s.thresholds.begin(), s.thresholds.end(),
                       [&](const HopThresholdLabels& u) { return u.threshold == t.threshold; });
      if (it == s.thresholds.end()) break;
      at.push_back(&*it);
    }
    if (at.size() != seeds.size()) continue;
    HopHeadsSummary::Threshold out;
    out.threshold = t.threshold;
    std::vector<double> positional, symbolic;
    for (const HopThresholdLabels* u : at) {
      positional.push_back(static_cast<double>(u->positional.size()));
      symbolic.push_back(static_cast<double>(u->symbolic.size()));
    }
    out.positional_heads = seed_statistic(std::move(positional));
    out.symbolic_heads = seed_statistic(std::move(symbolic));
    for (const std::string& head : h.heads) {
      std::vector<std::optional<HeadLabel>> per_seed;
      for (const HopThresholdLabels* u : at) {
        auto has = [&](const std::vector<std::string>& v) {
          return std::find(v.begin(), v.end(), head) != v.end();
        };
        per_seed.push_back(has(u->positional) ? std::optional(HeadLabel::kPositional)
                           : has(u->symbolic) ? std::optional(HeadLabel::kSymbolic)
                                              : std::nullopt);
      }
      out.labels.push_back(std::move(per_seed));
    }
    h.thresholds.push_back(std::move(out));
  }
  return h;
}

HopDiscrepancySummary summarize_discrepancy(const std::vector<HopDiscrepancyFile>& seeds,
                                            const std::vector<std::string>& files) {
  HopDiscrepancySummary d;
  d.variant = seeds.front().variant;
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    if (seeds[s].variant != d.variant)
      throw std::runtime_error(fmt::format(
          "'{}' measures {} inputs but '{}' {}: give results of "
          "one --variant",
          files[s], variant_name(seeds[s].variant), files.front(), variant_name(d.variant)));
    if (seeds[s].train_length && d.train_length && seeds[s].train_length != d.train_length)
      throw std::runtime_error(fmt::format("'{}' was trained at length {} but another file at {}",
                                           files[s], seeds[s].train_length, d.train_length));
    if (seeds[s].train_length) d.train_length = seeds[s].train_length;
  }
  std::vector<const LengthValues*> accuracy;
  for (const HopDiscrepancyFile& s : seeds) accuracy.push_back(&s.accuracy);
  d.lengths = common_keys(accuracy);
  if (d.lengths.empty()) throw std::runtime_error("the discrepancy results share no input length");
  for (std::int64_t length : d.lengths) {
    std::vector<double> v;
    for (const HopDiscrepancyFile& s : seeds) v.push_back(s.accuracy.at(length));
    d.accuracy.push_back(seed_statistic(std::move(v)));
  }
  // Roles in the order positional, symbolic, then the chosen heads as the files name them.
  std::vector<HopRole> roles = {{KeyHeadKind::kPositional, ""}, {KeyHeadKind::kSymbolic, ""}};
  for (const HopDiscrepancyFile& s : seeds)
    for (const HopKeyHead& r : s.roles)
      if (std::find(roles.begin(), roles.end(), r.role) == roles.end()) roles.push_back(r.role);
  for (const HopRole& role : roles) {
    std::vector<const HopKeyHead*> at;  // per seed, null where it has no such role
    for (const HopDiscrepancyFile& s : seeds) {
      const auto it = std::find_if(s.roles.begin(), s.roles.end(),
                                   [&](const HopKeyHead& r) { return r.role == role; });
      at.push_back(it == s.roles.end() ? nullptr : &*it);
    }
    if (std::none_of(at.begin(), at.end(), [](const HopKeyHead* r) { return r != nullptr; }))
      continue;
    HopRoleGaps g;
    g.role = role;
    auto collect = [&](auto get) {
      std::vector<double> v;
      for (const HopKeyHead* r : at) v.push_back(r ? get(*r) : kNaN);
      return seed_statistic(std::move(v));
    };
    for (const HopKeyHead* r : at) g.heads.push_back(r ? r->head : "");
    g.has_correct =
        std::any_of(at.begin(), at.end(), [](const HopKeyHead* r) { return r && r->has_correct; });
    for (std::int64_t length : d.lengths) {
      g.median_gap.push_back(
          collect([&](const HopKeyHead& r) { return value_or_nan(r.median, length); }));
      g.correct_median_gap.push_back(
          collect([&](const HopKeyHead& r) { return value_or_nan(r.correct_median, length); }));
    }
    g.exponent = collect([](const HopKeyHead& r) { return r.exponent; });
    g.on_chain_exponent = collect([](const HopKeyHead& r) { return r.on_chain_exponent; });
    d.roles.push_back(std::move(g));
  }
  return d;
}

std::vector<SeedInterval> intervals(const std::vector<SeedStatistic>& s) {
  std::vector<SeedInterval> out;
  for (const SeedStatistic& x : s) out.push_back(x.interval);
  return out;
}

std::vector<double> as_x(const std::vector<std::int64_t>& v) { return {v.begin(), v.end()}; }

// The hop counts of `hops` ("1", "2", ..., and "all"): two or more are an ordered family, drawn
// in the panel's sequential colour map and named on its colour bar (kHopsOrderLabel).
std::size_t hop_counts(const std::vector<std::string>& hops) {
  return static_cast<std::size_t>(std::count_if(
      hops.begin(), hops.end(), [](const std::string& h) { return h != kAllHopsKey; }));
}

// One hop's accuracy: "2-hop", or "all hops" drawn thick. Only all hops (or a lone hop) keeps
// its band: one band reads, five overlapping ones do not (every interval is in the data).
Series hop_series(const std::string& hop, const std::vector<double>& x,
                  const std::vector<SeedInterval>& y, const std::vector<std::string>& hops) {
  Series s = band_series(hop_key_title(hop), x, y);
  s.line_width = hop == kAllHopsKey ? 3 : 1;
  if (hop != kAllHopsKey && hops.size() > 1) s.y_low.clear(), s.y_high.clear();
  if (hop != kAllHopsKey && hop_counts(hops) > 1) s.order = std::stod(hop);
  return s;
}

}  // namespace

HopEvalSummary summarize_hop_eval(const std::vector<HopEvalFile>& seeds) {
  HopEvalSummary e;
  std::vector<const LengthTable*> acc, chance, control, control_chance;
  for (const HopEvalFile& s : seeds) {
    acc.push_back(&s.accuracy), chance.push_back(&s.chance);
    control.push_back(&s.control_accuracy), control_chance.push_back(&s.control_chance);
  }
  e.accuracy = hop_table(acc, chance);
  if (std::any_of(seeds.begin(), seeds.end(), [](const HopEvalFile& s) { return !s.control; }))
    return e;
  e.control = seeds.front().control;
  e.control_accuracy = hop_table(control, control_chance);
  if (std::all_of(seeds.begin(), seeds.end(),
                  [](const HopEvalFile& s) { return !s.decoy_rate.empty(); })) {
    for (std::int64_t length : e.control_accuracy.lengths) {
      std::vector<double> v;
      for (const HopEvalFile& s : seeds) v.push_back(value_or_nan(s.decoy_rate, length));
      e.decoy_rate.push_back(seed_statistic(std::move(v)));
    }
  }
  return e;
}

std::vector<HopEvalFile> read_hop_evals(const std::vector<std::string>& files,
                                        std::optional<Task>& task, std::string& task_file) {
  std::vector<std::vector<RunConfig>> runs;
  std::vector<HopEvalFile> evals = read_all(files, parse_hop_eval, task, task_file, runs);
  require_one_configuration(std::move(runs));
  return evals;
}

std::optional<std::size_t> HopTable::all_hops() const {
  const auto it = std::find(hops.begin(), hops.end(), kAllHopsKey);
  if (it == hops.end()) return std::nullopt;
  return static_cast<std::size_t>(it - hops.begin());
}

Series chance_series(const HopTable& table, const std::vector<std::int64_t>& lengths) {
  Series s;
  s.title = "chance (a uniform guess among the input's candidates)";
  s.style = "lines dt 2";
  s.line_width = 1;
  const std::optional<std::size_t> all = table.all_hops();
  for (std::size_t i = 0; i < table.lengths.size() && all; ++i) {
    const double chance = table.cells[i][*all].chance;
    if (!std::isfinite(chance) ||
        std::find(lengths.begin(), lengths.end(), table.lengths[i]) == lengths.end())
      continue;
    s.x.push_back(static_cast<double>(table.lengths[i]));
    s.y.push_back(chance);
  }
  return s;
}

std::optional<bool> HopCell::above_chance() const {
  if (!std::isfinite(chance) || !std::isfinite(accuracy.interval.low)) return std::nullopt;
  return accuracy.interval.low > chance;
}

std::int64_t settled_step(const std::vector<std::int64_t>& steps,
                          const std::vector<HeadLabel>& labels) {
  if (steps.empty() || steps.size() != labels.size())
    throw std::invalid_argument("settled_step needs one label per step, at least one");
  std::size_t i = labels.size() - 1;
  while (i > 0 && labels[i - 1] == labels.back()) --i;
  return steps[i];
}

HopSeedsResult summarize_hop_seeds(const HopSeedsOptions& o) {
  const std::pair<const char*, const std::vector<std::string>*> options[] = {
      {"--summary", &o.summary},
      {"--metrics", &o.metrics},
      {"--eval", &o.eval},
      {"--heads", &o.heads},
      {"--discrepancy", &o.discrepancy}};
  const char* first = nullptr;
  std::size_t n = 0;
  for (const auto& [name, files] : options) {
    if (files->empty()) continue;
    if (!first) first = name, n = files->size();
    if (files->size() != n)
      throw std::invalid_argument(
          fmt::format("{} has {} files but {} has {}: give each option "
                      "one file per training seed, in the same order",
                      name, files->size(), first, n));
    require_distinct_files(*files);
  }
  if (!first)
    throw std::invalid_argument(
        "give birth --run results (a text experiment) or, for hop runs, one file per training "
        "seed to at least one of --summary, --metrics, --eval, --heads, --discrepancy");
  if (n < 2 || n > kMaxSeeds)
    throw std::invalid_argument(
        fmt::format("give 2..{} files to {}, one per training seed (got {})", kMaxSeeds, first, n));
  if (!o.metrics.empty() && o.summary.empty())
    throw std::invalid_argument(
        "--metrics needs --summary with the same runs' summary.json (metrics.jsonl does not "
        "name its task)");
  HopSeedsResult r;
  r.seeds = n;
  r.files = o;
  std::optional<Task> task;  // the first file's
  std::string task_file;
  // Every file first, so that files of runs of other configurations are refused before any
  // statistic is taken over them.
  std::vector<std::vector<RunConfig>> runs;
  std::vector<HopSummaryFile> summaries;
  std::vector<HopEvalFile> evals;
  std::vector<HopHeadsFile> heads;
  std::vector<HopDiscrepancyFile> discrepancies;
  if (!o.summary.empty()) summaries = read_all(o.summary, parse_hop_summary, task, task_file, runs);
  if (!o.eval.empty()) evals = read_all(o.eval, parse_hop_eval, task, task_file, runs);
  if (!o.heads.empty()) heads = read_all(o.heads, parse_hop_heads, task, task_file, runs);
  if (!o.discrepancy.empty())
    discrepancies = read_all(o.discrepancy, parse_hop_discrepancy, task, task_file, runs);
  r.task = task.value();  // at least two files were read
  r.unchecked = require_one_configuration(std::move(runs), &r.unchecked_file);
  if (!o.summary.empty()) r.training = summarize_training(summaries);
  if (!o.metrics.empty()) {
    std::vector<HopMetricsFile> metrics;
    for (const std::string& f : o.metrics) metrics.push_back(read_hop_metrics(f));
    r.curves = summarize_curves(metrics);
  }
  if (!o.eval.empty()) r.eval = summarize_hop_eval(evals);
  if (!o.heads.empty()) r.heads = summarize_heads(heads, o.heads);
  if (!o.discrepancy.empty()) r.discrepancy = summarize_discrepancy(discrepancies, o.discrepancy);
  return r;
}

nlohmann::json to_json(const HopSeedsResult& r) { return to_json(hop_seeds_record(r)); }

std::vector<HopCellAt> hop_cells(const HopTable& t) {
  std::vector<HopCellAt> out;
  for (std::size_t i = 0; i < t.lengths.size(); ++i)
    for (std::size_t k = 0; k < t.hops.size(); ++k) out.push_back({&t, i, k});
  return out;
}

const std::vector<CsvColumn<HopCellAt>>& hop_cell_columns() {
  using C = HopCellAt;
  static const std::vector<CsvColumn<C>> columns = csv_concat(
      csv_concat({{"length", [](const C& c) { return std::to_string(c.table->lengths[c.length]); }},
                  {"hop", [](const C& c) { return c.table->hops[c.hop]; }}},
                 csv_mapped_columns<C>(
                     interval_columns(),
                     [](const C& c) -> const SeedInterval& { return c.cell().accuracy.interval; })),
      {{"chance", [](const C& c) { return csv_cell(c.cell().chance); }}});
  return columns;
}

namespace {

// A hop's crossing of one accuracy threshold: a row of the training CSV.
struct HopCrossing {
  std::string threshold;
  const std::string* hop = nullptr;
  const SeedStatistic* steps = nullptr;
};

std::string hop_crossings_csv(const HopTraining& t) {
  using C = HopCrossing;
  const std::vector<CsvColumn<C>> columns = csv_concat(
      csv_concat({{"threshold", [](const C& c) { return c.threshold; }},
                  {"hop", [](const C& c) { return *c.hop; }}},
                 csv_mapped_columns<C>(
                     interval_columns(),
                     [](const C& c) -> const SeedInterval& { return c.steps->interval; })),
      {{"crossed", [](const C& c) { return std::to_string(c.steps->interval.n); }}});
  std::vector<C> rows;
  using Crossings = std::pair<const char*, const std::vector<SeedStatistic>*>;
  for (const auto& [threshold, steps] :
       {Crossings{"0.9", &t.crossing_90}, Crossings{"0.99", &t.crossing_99}})
    for (std::size_t k = 0; k < t.hops.size(); ++k)
      rows.push_back({threshold, &t.hops[k], &(*steps)[k]});
  return csv_text(columns, rows);
}

}  // namespace

std::string hop_seeds_csv(const HopSeedsResult& r) {
  if (r.eval) return csv_text(hop_cell_columns(), hop_cells(r.eval->accuracy));
  if (r.training) return hop_crossings_csv(*r.training);
  return "";
}

namespace {

// Evals at one length (Letter far past 850 tokens): a length axis would hold one point, so the
// figure is a grid, hop by row of accuracy, the control's accuracy and chance, each cell the mean
// over seeds (the intervals are in the JSON and CSV).
Panel one_length_panel(const HopSeedsResult& r) {
  const HopEvalSummary& e = *r.eval;
  const HopTable& t = e.accuracy;
  Panel p;
  p.title = fmt::format("{} task at {} tokens: mean over {} training seeds", task_name(r.task),
                        t.lengths.front(), r.seeds);
  Heatmap& h = p.heatmap;
  for (const std::string& hop : t.hops) h.x_labels.push_back(hop_key_title(hop));
  auto row = [&](const std::string& label, const HopTable& table, bool chance) {
    if (table.hops != t.hops || table.cells.empty()) return;
    h.y_labels.push_back(label);
    std::vector<double>& z = h.z.emplace_back();
    for (const HopCell& c : table.cells.front())
      z.push_back(chance ? c.chance : c.accuracy.interval.mean);
  };
  row("accuracy", t, false);
  if (e.control)
    row(plain_text(std::string(variant_name(*e.control))) + " control", e.control_accuracy, false);
  row("chance", t, true);
  h.z_label = "accuracy";
  h.value_format = "%.3f";
  return p;
}

}  // namespace

void render_hop_seeds_figures(const HopSeedsResult& r, const std::string& stem) {
  const std::string seeds = fmt::format("{} training seeds, 95% t band", r.seeds);
  auto render = [&](std::vector<Panel> panels, const std::string& suffix, int width) {
    Figure f;
    f.panels = std::move(panels);
    f.width = width;
    render_figure(f, stem + suffix);
  };
  if (r.curves) {
    const HopCurves& c = *r.curves;
    Panel p;
    p.title = std::string(task_name(r.task)) +
              " task: held-out accuracy per hop during training (" + seeds + ")";
    p.xlabel = "training step";
    p.ylabel = "held-out accuracy";
    p.ymin = 0;
    p.ymax = 1.02;
    for (std::size_t k = 0; k < c.hops.size(); ++k) {
      std::vector<SeedInterval> y;
      for (const auto& row : c.accuracy) y.push_back(row[k].interval);
      Series s = hop_series(c.hops[k], as_x(c.steps), y, c.hops);
      s.style = "lines";
      p.series.push_back(std::move(s));
    }
    if (hop_counts(c.hops) > 1) p.order_label = kHopsOrderLabel;
    render({p}, "_training", 900);
  }
  if (r.eval && r.eval->accuracy.lengths.size() == 1) {
    render({one_length_panel(r)}, "_eval", 900);
  } else if (r.eval) {
    const HopEvalSummary& e = *r.eval;
    Panel p = accuracy_length_panel(std::string(task_name(r.task)) +
                                    " task: accuracy against input length (" + seeds + ")");
    auto column = [](const HopTable& t, std::size_t k) {
      std::vector<SeedInterval> y;
      for (const auto& row : t.cells) y.push_back(row[k].accuracy.interval);
      return y;
    };
    const HopTable& t = e.accuracy;
    for (std::size_t k = 0; k < t.hops.size(); ++k)
      p.series.push_back(hop_series(t.hops[k], as_x(t.lengths), column(t, k), t.hops));
    if (hop_counts(t.hops) > 1) p.order_label = kHopsOrderLabel;
    // The mean over seeds of each eval's chance level.
    Series chance = chance_series(t, t.lengths);
    if (!chance.x.empty()) p.series.push_back(std::move(chance));
    const HopTable& c = e.control_accuracy;
    if (e.control && c.all_hops()) {
      Series s =
          band_series("all hops, " + plain_text(std::string(variant_name(*e.control))) + " control",
                      as_x(c.lengths), column(c, *c.all_hops()));
      s.line_width = 3;
      p.series.push_back(std::move(s));
    }
    render({p}, "_eval", 1150);
  }
  if (r.heads) {
    const HopHeadsSummary& h = *r.heads;
    // One head per layer: name the lines by layer.
    const bool multi_head = std::any_of(h.heads.begin(), h.heads.end(),
                                        [](const std::string& n) { return !n.ends_with(".h0"); });
    // Past four heads their bands hide one another: the lines are the seed means, and the
    // intervals stay in the JSON and CSV.
    const bool bands = h.heads.size() <= 4;
    std::vector<Panel> panels;
    for (const bool positional : {true, false}) {
      Panel p;
      p.title = std::string(task_name(r.task)) + ": " + (positional ? "positional" : "symbolic") +
                " score per " + (multi_head ? "head" : "layer") + " (" +
                (bands ? seeds : fmt::format("mean of {} training seeds", r.seeds)) + ")";
      p.xlabel = "training step";
      p.ylabel = positional ? "positional score" : "symbolic score";
      p.ymin = -0.05;
      p.ymax = 1.05;
      p.order_label = multi_head ? "head, layer by layer (0 = L0.h0)" : "layer";
      for (std::size_t k = 0; k < h.heads.size(); ++k) {
        std::vector<SeedInterval> y;
        for (const auto& step : positional ? h.positional : h.symbolic)
          y.push_back(step[k].interval);
        Series s = band_series(multi_head ? h.heads[k] : h.heads[k].substr(0, h.heads[k].find('.')),
                               as_x(h.steps), y);
        s.style = "lines";
        s.line_width = bands ? 1 : 2;
        s.order = static_cast<double>(k);
        if (!bands) s.y_low.clear(), s.y_high.clear();
        p.series.push_back(std::move(s));
      }
      panels.push_back(std::move(p));
    }
    render(std::move(panels), "_heads", 1400);
  }
  if (r.discrepancy) {
    const HopDiscrepancySummary& d = *r.discrepancy;
    Panel p;
    p.title = std::string(task_name(r.task)) + " task, " +
              plain_text(std::string(variant_name(d.variant))) +
              " inputs: key-head gap against length (" + seeds + ")";
    p.xlabel = "input length (tokens, log scale)";
    p.ylabel = "median top − second attention logit at the query";
    p.log_x = true;
    p.y2label = "accuracy";
    p.y2min = 0;
    p.y2max = 1.02;
    for (const HopRoleGaps& g : d.roles)
      p.series.push_back(
          band_series(hop_role_title(g.role), as_x(d.lengths), intervals(g.median_gap)));
    Series accuracy = band_series("accuracy", as_x(d.lengths), intervals(d.accuracy));
    accuracy.right_axis = true;
    accuracy.style = "lines dt 2";
    accuracy.line_width = 1;
    p.series.push_back(std::move(accuracy));
    render({p}, "_discrepancy", 900);
  }
}

// "seeds: N TASK seeds; all hops reach 0.9 at step ...; accuracy (...) at length ..."
std::string hop_seeds_summary(const HopSeedsResult& r) {
  std::string line = fmt::format("seeds: {} {} seeds", r.seeds, task_name(r.task));
  if (r.training) {
    const HopTraining& t = *r.training;
    const auto all = std::find(t.hops.begin(), t.hops.end(), kAllHopsKey) - t.hops.begin();
    if (all < std::ssize(t.hops)) {
      const SeedInterval& crossing = t.crossing_90[static_cast<std::size_t>(all)].interval;
      line += crossing.n == 0  // no seed reached it: there is no step to average
                  ? fmt::format("; all hops never reached 0.9 (0 of {} seeds)", r.seeds)
                  : fmt::format("; all hops reach 0.9 at step {} ({} of {} seeds)",
                                format_interval(crossing, 0), crossing.n, r.seeds);
    }
  }
  if (r.eval && !r.eval->accuracy.lengths.empty()) {
    const HopTable& t = r.eval->accuracy;
    line +=
        fmt::format("; accuracy ({}) at length {} {}, at {} {}", hop_key_title(t.hops.back()),
                    t.lengths.front(), format_interval(t.cells.front().back().accuracy.interval),
                    t.lengths.back(), format_interval(t.cells.back().back().accuracy.interval));
  }
  return line + "\n";
}

void run_hop_seeds(const HopSeedsOptions& o) {
  const HopSeedsResult r = summarize_hop_seeds(o);
  if (!o.csv.empty() && !r.eval && !r.training)
    throw std::invalid_argument(
        "--csv writes the eval table (without --eval, the crossing steps): give --eval or "
        "--summary");
  // The JSON for a pipe or a file; on a terminal the summary instead (core/json_result.h).
  write_json_result(o.json, to_json(r).dump(2) + "\n", [&r] { return hop_seeds_summary(r); });
  if (!o.csv.empty()) write_file_atomic(o.csv, hop_seeds_csv(r));
  if (!o.plot.empty()) render_hop_seeds_figures(r, o.plot);
  note_unchecked_configurations(
      r.unchecked,
      r.seeds * (!o.summary.empty() + !o.eval.empty() + !o.heads.empty() + !o.discrepancy.empty()),
      r.unchecked_file);
}

Panel accuracy_length_panel(const std::string& title) {
  Panel p;
  p.title = title;
  p.xlabel = "input length (tokens, log scale)";
  p.ylabel = "accuracy";
  p.log_x = true;
  p.ymin = 0;
  p.ymax = 1.02;
  return p;
}

}  // namespace posbias
