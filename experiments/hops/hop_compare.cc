#include "experiments/hops/hop_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "experiments/hops/hop_seeds_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv.h"
#include "posbias/core/json_result.h"

namespace posbias {
namespace {

std::string seeds_text(std::size_t n) { return n == 1 ? "1 seed" : fmt::format("{} seeds", n); }

}  // namespace

HopConfiguration parse_hop_configuration(const std::string& text) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument(fmt::format(
        "--compare '{}': give LABEL=EVAL.json,EVAL.json,... (a label, then each training "
        "seed's eval --run result)",
        text));
  HopConfiguration c;
  c.label = text.substr(0, eq);
  std::size_t start = eq + 1;
  while (true) {
    const auto comma = text.find(',', start);
    const std::string file =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (file.empty())
      throw std::invalid_argument(
          fmt::format("--compare '{}': an empty file name in the list after '='", text));
    c.eval.push_back(file);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (c.eval.size() > kMaxSeeds)
    throw std::invalid_argument(
        fmt::format("--compare '{}': at most {} files, one per seed", c.label, kMaxSeeds));
  return c;
}

HopComparison compare_hop_configurations(const std::vector<HopConfiguration>& configurations) {
  if (configurations.size() < 2 || configurations.size() > kMaxConfigurations)
    throw std::invalid_argument(
        fmt::format("give 2..{} configurations to --compare, LABEL=EVAL.json,... each (got {})",
                    kMaxConfigurations, configurations.size()));
  std::set<std::string> labels;
  std::vector<std::string> every_file;
  for (const HopConfiguration& c : configurations) {
    if (!labels.insert(c.label).second)
      throw std::invalid_argument(
          fmt::format("--compare: the label '{}' is given twice; one per configuration", c.label));
    every_file.insert(every_file.end(), c.eval.begin(), c.eval.end());
  }
  require_distinct_files(every_file);
  HopComparison r;
  r.configurations = configurations;
  std::optional<Task> task;  // the first file's
  std::string task_file;
  for (const HopConfiguration& c : configurations) {
    r.accuracy.push_back(summarize_hop_eval(read_hop_evals(c.eval, task, task_file)).accuracy);
    if (!r.accuracy.back().all_hops())
      throw std::runtime_error(
          fmt::format("--compare '{}': its evals share no all-hops accuracy (\"all\")", c.label));
  }
  r.task = task.value();  // at least two configurations were read
  r.lengths = r.accuracy.front().lengths;
  for (const HopTable& t : r.accuracy)
    std::erase_if(r.lengths, [&](std::int64_t n) {
      return !std::binary_search(t.lengths.begin(), t.lengths.end(), n);
    });
  if (r.lengths.empty())
    throw std::runtime_error(
        "the configurations share no input length: evaluate them at common lengths");
  return r;
}

nlohmann::json to_json(const HopComparison& r) { return to_json(hop_comparison_record(r)); }

namespace {

// A configuration's cell: a row of the comparison's CSV.
struct ConfigurationCell {
  const HopConfiguration* configuration = nullptr;
  HopCellAt cell;
};

}  // namespace

std::string hop_comparison_csv(const HopComparison& r) {
  using C = ConfigurationCell;
  const std::vector<CsvColumn<C>> columns = csv_concat(
      {{"label", [](const C& c) { return csv_quoted(c.configuration->label); }},
       {"seeds", [](const C& c) { return std::to_string(c.configuration->eval.size()); }}},
      csv_mapped_columns<C>(hop_cell_columns(), [](const C& c) { return c.cell; }));
  std::vector<C> rows;
  for (std::size_t c = 0; c < r.configurations.size(); ++c)
    for (const HopCellAt& cell : hop_cells(r.accuracy[c]))
      rows.push_back({&r.configurations[c], cell});
  return csv_text(columns, rows);
}

// A heatmap, one row per configuration (the first on top) and one column per length, each cell
// the seeds' mean all-hop accuracy, over a last row of chance: configurations near chance drew
// their bands over one another as curves (seven of them past 64 tokens on Number).
void render_hop_comparison_figure(const HopComparison& r, const std::string& stem) {
  Panel p;
  p.title = std::string(task_name(r.task)) +
            " task: accuracy (all hops, mean over seeds; intervals in the CSV) by input length";
  p.xlabel = "input length (tokens)";
  Heatmap& h = p.heatmap;
  h.z_label = "accuracy";
  for (std::int64_t length : r.lengths) h.x_labels.push_back(std::to_string(length));
  auto row_at = [&](const HopTable& t, auto value) {
    const std::size_t all = *t.all_hops();
    std::vector<double> row;
    for (std::int64_t length : r.lengths) {
      const auto at = std::find(t.lengths.begin(), t.lengths.end(), length);
      row.push_back(value(t.cells[static_cast<std::size_t>(at - t.lengths.begin())][all]));
    }
    return row;
  };
  // The first configuration's chance: it depends on the task and length only.
  h.y_labels.push_back("chance (uniform guess)");
  h.z.push_back(row_at(r.accuracy.front(), [](const HopCell& c) { return c.chance; }));
  for (std::size_t c = r.configurations.size(); c-- > 0;) {
    h.y_labels.push_back(plain_text(r.configurations[c].label) + " (" +
                         seeds_text(r.configurations[c].eval.size()) + ")");
    h.z.push_back(
        row_at(r.accuracy[c], [](const HopCell& cell) { return cell.accuracy.interval.mean; }));
  }
  h.max_tics = std::max(h.y_labels.size(), h.x_labels.size());  // every row and length named
  Figure f;
  f.panels = {p};
  f.width = 1000;
  f.height = 120 + 45 * static_cast<int>(h.y_labels.size());
  render_figure(f, stem + "_compare");
}

// "seeds: N TASK configurations; accuracy (all hops) at L tokens: LABEL MEAN [LO, HI] (k seeds);
// ..."
std::string hop_comparison_summary(const HopComparison& r) {
  std::string line = fmt::format("seeds: {} {} configurations; accuracy (all hops) at {} tokens:",
                                 r.configurations.size(), task_name(r.task), r.lengths.back());
  for (std::size_t c = 0; c < r.configurations.size(); ++c) {
    const HopTable& t = r.accuracy[c];
    const auto i =
        std::find(t.lengths.begin(), t.lengths.end(), r.lengths.back()) - t.lengths.begin();
    line += fmt::format(
        " {} {} ({});", r.configurations[c].label,
        format_interval(t.cells[static_cast<std::size_t>(i)][*t.all_hops()].accuracy.interval),
        seeds_text(r.configurations[c].eval.size()));
  }
  line.back() = '\n';
  return line;
}

void write_hop_comparison(const HopComparison& r, const std::string& json, const std::string& csv,
                          const std::string& plot) {
  // The JSON for a pipe or a file; on a terminal the summary instead (core/json_result.h).
  write_json_result(json, to_json(r).dump(2) + "\n", [&r] { return hop_comparison_summary(r); });
  if (!csv.empty()) write_file_atomic(csv, hop_comparison_csv(r));
  if (!plot.empty()) render_hop_comparison_figure(r, plot);
}

void run_hop_comparison(const HopCompareOptions& o) {
  std::vector<HopConfiguration> configurations;
  for (const std::string& text : o.configurations)
    configurations.push_back(parse_hop_configuration(text));
  write_hop_comparison(compare_hop_configurations(configurations), o.json, o.csv, o.plot);
}

}  // namespace posbias
