#include "experiments/theory/compare_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/csv.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/json_read.h"
#include "posbias/core/json_result.h"
#include "posbias/stats/bootstrap.h"
#include "posbias/theory/shape_comparison.h"

namespace posbias {
namespace {

constexpr std::size_t kMaxRuns = 256;

std::vector<double> positive_row(const nlohmann::json& j, const std::string& path,
                                 const std::string& field) {
  if (!j.is_array() || j.size() < 2 || j.size() > 10'000'000)
    throw std::runtime_error("'" + path + "': " + field + " must be an array of >= 2 numbers");
  std::vector<double> out;
  out.reserve(j.size());
  for (const auto& v : j) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
      throw std::runtime_error("'" + path + "': " + field + " must hold finite numbers > 0");
    out.push_back(v.get<double>());
  }
  return out;
}

const nlohmann::json& field(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.is_object() || !j.contains(key))
    throw std::runtime_error("'" + path + "' has no \"" + key +
                             "\" (is it a `posbias birth --json` result?)");
  return j.at(key);
}

}  // namespace

CompareRun read_birth_run(const std::string& file, const std::string& label) {
  constexpr std::uintmax_t kMaxRunBytes = std::uintmax_t{256} << 20;
  return parse_birth_run(read_bounded_file(file, kMaxRunBytes, "256 MiB birth-result"), file,
                         label);
}

CompareRun parse_birth_run(const std::string& text, const std::string& path,
                           const std::string& label) {
  nlohmann::json j;
  try {
    j = parse_json(text, path);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error("'" + path + "' is not valid JSON");
  }
  CompareRun r;
  r.file = path;
  r.label = label;
  r.measured = positive_row(field(j, "profile", path), path, "profile");
  const auto& nofit = field(j, "nofit", path);
  r.predicted = positive_row(field(nofit, "profile", path), path, "nofit.profile");
  if (r.predicted.size() != r.measured.size())
    throw std::runtime_error("'" + path + "': nofit.profile and profile differ in length");
  const auto& alpha = field(nofit, "alpha", path);
  if (!alpha.is_array() || alpha.empty() || alpha.size() > 1024)
    throw std::runtime_error("'" + path + "': nofit.alpha must list 1..1024 layers");
  r.layers = static_cast<std::int64_t>(alpha.size());
  for (const auto& a : alpha) {
    if (!a.is_number() || !(a.get<double>() >= 0 && a.get<double>() <= 1))
      throw std::runtime_error("'" + path + "': nofit.alpha must hold numbers in [0, 1]");
    r.alpha_mean += a.get<double>() / static_cast<double>(alpha.size());
  }
  const auto& seeds = field(j, "profile_seeds", path);
  if (!seeds.is_array() || seeds.size() > 100000)
    throw std::runtime_error("'" + path + "': profile_seeds must be an array");
  for (const auto& s : seeds) {
    r.seeds.push_back(positive_row(s, path, "profile_seeds"));
    if (r.seeds.back().size() != r.measured.size())
      throw std::runtime_error("'" + path + "': profile_seeds rows differ from profile in length");
  }
  auto depth = [](const std::vector<double>& p) {
    return *std::min_element(p.begin(), p.end()) / p.front();
  };
  r.dead_zone_measured = depth(r.measured);
  r.dead_zone_predicted = depth(r.predicted);
  r.dead_zone_factorial = 1.0 / std::tgamma(static_cast<double>(r.layers));  // 1/(H-1)!
  return r;
}

namespace {

std::vector<double> errors_against(const std::vector<double>& measured,
                                   const std::vector<CompareRun>& runs) {
  std::vector<double> e;
  for (const auto& k : runs)
    e.push_back(shape_metrics(measured, k.predicted).median_abs_log10_error);
  return e;
}

int argmin(const std::vector<double>& v) {
  return static_cast<int>(std::min_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

CompareResult compare_runs(const CompareOptions& o) {
  if (o.runs.size() < 2 || o.runs.size() > kMaxRuns)
    throw std::invalid_argument("theory compare needs 2.." + std::to_string(kMaxRuns) +
                                " birth results, got " + std::to_string(o.runs.size()));
  if (!o.labels.empty() && o.labels.size() != o.runs.size())
    throw std::invalid_argument("--labels needs one label per run (" +
                                std::to_string(o.runs.size()) + "), got " +
                                std::to_string(o.labels.size()));
  if (o.bootstrap < 0 || o.bootstrap > 100000)
    throw std::invalid_argument("--bootstrap must be in 0..100000");
  CompareResult r;
  for (std::size_t i = 0; i < o.runs.size(); ++i) {
    const std::string label =
        o.labels.empty() ? std::filesystem::path(o.runs[i]).stem().string() : o.labels[i];
    r.runs.push_back(read_birth_run(o.runs[i], label));
    if (r.runs.back().measured.size() != r.runs.front().measured.size())
      throw std::invalid_argument(
          "'" + o.runs[i] + "' has " + std::to_string(r.runs.back().measured.size()) +
          " positions, '" + o.runs[0] + "' " + std::to_string(r.runs.front().measured.size()) +
          ": compare runs at one length");
  }
  std::mt19937_64 rng(o.seed);
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    r.error.push_back(errors_against(r.runs[i].measured, r.runs));
    r.assigned.push_back(argmin(r.error[i]));
    double other = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < r.runs.size(); ++k)
      if (k != i) other = std::min(other, r.error[i][k]);
    r.margin.push_back(other - r.error[i][i]);
    r.correct += r.assigned[i] == static_cast<int>(i);
    int self = 0;
    const auto& seeds = r.runs[i].seeds;
    for (int b = 0; seeds.size() >= 2 && b < o.bootstrap; ++b)
      self += argmin(errors_against(resampled_sum(seeds, rng), r.runs)) == static_cast<int>(i);
    r.bootstrap_self.push_back(seeds.size() >= 2 && o.bootstrap > 0
                                   ? static_cast<double>(self) / o.bootstrap
                                   : std::numeric_limits<double>::quiet_NaN());
  }
  return r;
}

CompareRecord compare_record(const CompareResult& r) {
  CompareRecord out;
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const CompareRun& run = r.runs[i];
    out.runs.push_back(
        {run.label,
         run.file,
         run.layers,
         static_cast<std::int64_t>(run.seeds.size()),
         run.alpha_mean,
         r.error[i][i],
         r.runs[static_cast<std::size_t>(r.assigned[i])].label,
         r.margin[i],
         r.bootstrap_self[i],
         {run.dead_zone_measured, run.dead_zone_predicted, run.dead_zone_factorial}});
  }
  out.errors = r.error;
  out.correct = r.correct;
  out.total = static_cast<std::int64_t>(r.runs.size());
  out.statistic = "median |log10(measured/predicted)|, unit-sum profiles, positions 0..q-1";
  return out;
}

nlohmann::json to_json(const CompareResult& r) { return to_json(compare_record(r)); }

std::string compare_csv(const CompareResult& r) {
  using I = std::size_t;  // a run: its row
  const auto general = [](int digits) {
    return [digits](double v) { return csv_general(v, digits); };
  };
  const auto run_number = [&r](double CompareRun::*member, CsvNumber number) {
    return [&r, member, number](const I& i) { return number(r.runs[i].*member); };
  };
  std::vector<CsvColumn<I>> columns = {
      {"run", [&r](const I& i) { return csv_quoted(r.runs[i].label); }}};
  for (std::size_t k = 0; k < r.runs.size(); ++k)
    columns.push_back({csv_quoted("vs " + r.runs[k].label),
                       [&r, k, general](const I& i) { return general(6)(r.error[i][k]); }});
  return csv_text(
      csv_concat(
          columns,
          {{"assigned",
            [&r](const I& i) {
              return csv_quoted(r.runs[static_cast<std::size_t>(r.assigned[i])].label);
            }},
           {"margin", [&r, general](const I& i) { return general(6)(r.margin[i]); }},
           {"bootstrap_self",
            [&r, general](const I& i) { return general(4)(r.bootstrap_self[i]); }},
           {"layers", [&r](const I& i) { return std::to_string(r.runs[i].layers); }},
           {"alpha_mean", run_number(&CompareRun::alpha_mean, general(6))},
           {"dead_zone_measured", run_number(&CompareRun::dead_zone_measured, general(6))},
           {"dead_zone_predicted", run_number(&CompareRun::dead_zone_predicted, general(6))},
           {"dead_zone_factorial", run_number(&CompareRun::dead_zone_factorial, general(6))}}),
      csv_indices(r.runs.size()));
}

Figure compare_figure(const CompareResult& r) {
  Panel p;
  p.title = fmt::format("median |log10 error|, measured vs no-fit: {} of {} closest to their own",
                        r.correct, r.runs.size());
  p.xlabel = "no-fit prediction of run";
  p.ylabel = "measured profile of run";
  double top = 0;
  for (const auto& row : r.error)
    for (double e : row) top = std::max(top, e);
  for (const auto& run : r.runs) {
    std::string label = run.label;  // '_' would start a subscript in gnuplot's enhanced text
    std::replace(label.begin(), label.end(), '_', ' ');
    p.heatmap.x_labels.push_back(label);
    p.heatmap.y_labels.push_back(label);
  }
  p.heatmap.value_format = "%.3f";
  p.heatmap.z = r.error;
  p.heatmap.zmin = 0;
  p.heatmap.zmax = top;
  p.heatmap.z_label = "median |log10 error|";
  Figure fig;
  fig.panels = {p};
  return fig;
}

// The lines a person at a terminal gets instead of the JSON: the count, then each run's closest
// prediction with its margin and how often resampled seeds keep it there.
std::string compare_summary(const CompareResult& r) {
  std::string out = fmt::format(
      "theory compare: {} of {} measured profiles closest to their own no-fit prediction\n",
      r.correct, r.runs.size());
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const std::size_t k = static_cast<std::size_t>(r.assigned[i]);
    out += fmt::format("  {}: closest to {} (margin {:.3f}; own in {:.0f}% of resamples)\n",
                       r.runs[i].label, k == i ? "its own" : r.runs[k].label, r.margin[i],
                       100 * r.bootstrap_self[i]);
  }
  return out;
}

void run_compare(const CompareOptions& o) {
  const CompareResult r = compare_runs(o);
  // Without --json on a terminal: the summary and how to get the JSON (core/json_result.h).
  write_json_result(o.json, to_json(r).dump(2) + "\n", [&r] { return compare_summary(r); });
  if (!o.csv.empty()) write_file_atomic(o.csv, compare_csv(r));
  if (!o.plot.empty()) render_figure(compare_figure(r), o.plot);
}

}  // namespace posbias
