#include "experiments/retrieval/colocation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "experiments/retrieval/colocation_record.h"
#include "experiments/retrieval/depth_eval_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_read.h"
#include "posbias/core/json_result.h"
#include "posbias/core/plot.h"
#include "posbias/theory/fit.h"
#include "posbias/train/answer_influence_record.h"

namespace posbias {
namespace {

bool constant(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); });
}

// The bins of `v` tied at its minimum, as indices.
std::vector<std::size_t> minima(const std::vector<double>& v) {
  const double low = *std::min_element(v.begin(), v.end());
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] <= low + 1e-12) out.push_back(i);
  }
  return out;
}

std::size_t argmin(const std::vector<double>& v) {
  return static_cast<std::size_t>(std::min_element(v.begin(), v.end()) - v.begin());
}

bool contains(const std::vector<std::size_t>& set, std::size_t i) {
  return std::find(set.begin(), set.end(), i) != set.end();
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot open '" + path + "': give an existing JSON file");
  try {
    return parse_json(in, path);
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("'" + path + "' is not JSON: give a birth or eval --json result");
  }
}

}  // namespace

ColocationResult colocate(std::int64_t length, const std::vector<int>& depths,
                          const std::vector<std::vector<double>>& accuracy,
                          const std::vector<std::vector<double>>& influence) {
  const std::size_t bins = depths.size();
  if (accuracy.empty() || accuracy.size() != influence.size())
    throw std::invalid_argument("co-location needs one accuracy and one influence row per seed");
  if (bins < 2) throw std::invalid_argument("co-location needs at least 2 depth bins");
  for (std::size_t s = 0; s < accuracy.size(); ++s) {
    if (accuracy[s].size() != bins || influence[s].size() != bins) {
      throw std::invalid_argument(
          fmt::format("co-location seed {}: {} accuracies and {} influences for {} depths", s,
                      accuracy[s].size(), influence[s].size(), bins));
    }
  }
  ColocationResult r;
  r.length = length;
  r.depths = depths;
  r.accuracy = accuracy;
  r.influence = influence;
  const double seeds = static_cast<double>(accuracy.size());
  r.mean_accuracy.assign(bins, 0.0);
  r.mean_influence.assign(bins, 0.0);
  for (std::size_t s = 0; s < accuracy.size(); ++s) {
    const bool flat = constant(accuracy[s]) || constant(influence[s]);
    r.rho.push_back(flat ? NAN : spearman(accuracy[s], influence[s]));
    if (contains(minima(accuracy[s]), argmin(influence[s])) && !constant(accuracy[s]))
      ++r.seeds_same_bin;
    for (std::size_t b = 0; b < bins; ++b) {
      r.mean_accuracy[b] += accuracy[s][b] / seeds;
      r.mean_influence[b] += influence[s][b] / seeds;
    }
  }
  // A correlation lies in [−1, 1]; with few seeds the Student-t interval on the mean ρ runs past
  // it, and the part outside says nothing: it is cut there, and the cut is reported.
  r.rho_interval = seed_interval(r.rho);
  if (r.rho_interval.n >= 2 && (r.rho_interval.low < -1 || r.rho_interval.high > 1)) {
    r.rho_interval.low = std::max(r.rho_interval.low, -1.0);
    r.rho_interval.high = std::min(r.rho_interval.high, 1.0);
    r.rho_interval_cut = true;
  }
  const std::vector<std::size_t> low = minima(r.mean_accuracy);
  for (std::size_t b : low) r.accuracy_minimum.push_back(depths[b]);
  const std::size_t m = argmin(r.mean_influence);
  r.influence_minimum = depths[m];
  if (low.size() == bins) {
    r.verdict = "no accuracy minimum";
  } else {
    r.verdict = contains(low, m) ? "same bin" : "different bins";
  }
  return r;
}

namespace {

// A `birth --inputs kv|passkey` result with a checkpoint, read by its field table (one line
// naming the file and the field otherwise).
AnswerInfluenceRecord read_influence(const std::string& path) {
  const nlohmann::json j = read_json_file(path);
  AnswerInfluenceRecord r;
  try {
    r = answer_influence_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("'" + path +
                                "' is not a `birth --inputs kv|passkey` result: " + e.what());
  }
  if (r.checkpoints.empty())
    throw std::invalid_argument("'" + path + "' is a `birth --inputs` result with no checkpoint");
  return r;
}

// A kv or passkey `eval` result, read by its field table (one line naming the file and the
// field otherwise).
DepthEvalRecord read_depth_eval(const std::string& path) {
  try {
    return depth_eval_record_from_json(read_json_file(path));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("'" + path + "' is not a kv or passkey `eval` result: " + e.what());
  }
}

}  // namespace

ColocationResult colocate_files(const ColocationOptions& o) {
  if (o.influence.empty() || o.influence.size() != o.accuracy.size()) {
    throw std::invalid_argument(fmt::format(
        "--colocate has {} influence files and --accuracy {} eval files: give one of each per "
        "seed, in the same order",
        o.influence.size(), o.accuracy.size()));
  }
  std::int64_t length = 0;
  AnswerInputs kind = AnswerInputs::kKv;  // the first file's inputs
  std::vector<int> depths;
  std::vector<std::vector<double>> accuracy, influence;
  for (std::size_t s = 0; s < o.influence.size(); ++s) {
    const AnswerInfluenceRecord inf = read_influence(o.influence[s]);
    const AnswerInputs inputs = inf.inputs;
    if (s == 0) kind = inputs;
    if (inputs != kind) {
      throw std::invalid_argument("'" + o.influence[s] + "' measured " + to_string(inputs) +
                                  " inputs and '" + o.influence[0] + "' " + to_string(kind) +
                                  " inputs: co-locate one task");
    }
    if (s == 0) length = inf.length, depths = inf.depths;
    if (inf.length != length || inf.depths != depths) {
      throw std::invalid_argument("'" + o.influence[s] + "' has another length or depths than '" +
                                  o.influence[0] + "': measure every seed alike");
    }
    std::vector<double> needle;
    for (const AnswerDepthRecord& bin : inf.checkpoints.back().by_depth)
      needle.push_back(bin.needle.interval.mean);
    influence.push_back(std::move(needle));

    const DepthEvalRecord ev = read_depth_eval(o.accuracy[s]);
    if (ev.task != kind) {
      throw std::invalid_argument("'" + o.accuracy[s] + "' is an eval of a " + to_string(ev.task) +
                                  " run, and '" + o.influence[s] + "' measured " + to_string(kind) +
                                  " inputs: pair each seed's files");
    }
    const std::string key = std::to_string(length);
    const auto at = ev.depth_accuracy.find(key);
    if (at == ev.depth_accuracy.end()) {
      throw std::invalid_argument("'" + o.accuracy[s] + "' has no depth_accuracy at length " + key +
                                  ": run eval with --lengths including " + key);
    }
    std::vector<double> row;
    for (int d : depths) {
      const auto cell = at->second.find(std::to_string(d));
      if (cell == at->second.end()) {
        throw std::invalid_argument(
            fmt::format("'{}' has no depth {} at length {}: run eval with the influence's --depths",
                        o.accuracy[s], d, key));
      }
      row.push_back(cell->second.accuracy);
    }
    accuracy.push_back(std::move(row));
  }
  ColocationResult r = colocate(length, depths, accuracy, influence);
  r.inputs = kind;
  return r;
}

ColocationRecord colocation_record(const ColocationResult& r, const ColocationOptions& o) {
  ColocationRecord out;
  out.inputs = r.inputs;
  out.length = r.length;
  out.depths = r.depths;
  out.rule =
      "Spearman rho per seed between the bins' accuracies and mean needle shares (null when "
      "either is constant), mean with its 95% Student-t interval over seeds, cut to [-1, 1] (cut: "
      "true when it ran past); verdict on the "
      "seed means: same bin when the lowest needle share is in a bin tied at the lowest "
      "accuracy, different bins when not, no accuracy minimum when every bin has the same "
      "accuracy";
  for (std::size_t s = 0; s < r.accuracy.size(); ++s) {
    out.seeds.push_back({s < o.influence.size() ? o.influence[s] : "",
                         s < o.accuracy.size() ? o.accuracy[s] : "", r.accuracy[s], r.influence[s],
                         r.rho[s]});
  }
  out.spearman = {r.rho_interval.mean, r.rho_interval.low, r.rho_interval.high,
                  static_cast<std::int64_t>(r.rho_interval.n), r.rho_interval_cut};
  out.mean_accuracy = r.mean_accuracy;
  out.mean_needle_share = r.mean_influence;
  out.accuracy_minimum = r.accuracy_minimum;
  out.influence_minimum = r.influence_minimum;
  out.seeds_same_bin = r.seeds_same_bin;
  out.verdict = r.verdict;
  return out;
}

nlohmann::json to_json(const ColocationResult& r, const ColocationOptions& o) {
  return to_json(colocation_record(r, o));
}

namespace {

Panel by_depth_panel(const ColocationResult& r, const std::vector<std::vector<double>>& rows,
                     const std::string& title, const std::string& ylabel) {
  Panel p;
  p.title = title;
  p.xlabel = "depth of the queried " + needle_word(r.inputs) + " (%)";
  p.ylabel = ylabel;
  Series s;
  // Short: a long title beside the axes squeezes them to a sliver. The band is said in the panel
  // title.
  s.title = rows.size() >= 2 ? fmt::format("mean of {} seeds", rows.size())
                             : std::string("one seed: no band");
  if (rows.size() >= 2) p.title += "; band: 95% Student-t, cut to [0, 1]";
  s.style = "linespoints";
  for (std::size_t b = 0; b < r.depths.size(); ++b) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[b]);
    const SeedInterval i = seed_interval(column);
    s.x.push_back(r.depths[b]);
    s.y.push_back(i.mean);
    // Accuracy and influence share are proportions: the band is cut to [0, 1].
    s.y_low.push_back(std::isfinite(i.low) ? std::max(0.0, i.low) : i.mean);
    s.y_high.push_back(std::isfinite(i.high) ? std::min(1.0, i.high) : i.mean);
  }
  p.series = {s};
  p.xmin = r.depths.front();
  p.xmax = r.depths.back();
  return p;
}

}  // namespace

ColocationResult run_colocation(const ColocationOptions& o) {
  const ColocationResult r = colocate_files(o);
  // Without --json on a terminal: the verdict's numbers and how to get the JSON
  // (core/json_result.h).
  write_json_result(o.json, to_json(r, o).dump(2) + "\n", [&r] {
    std::string out = fmt::format(
        "co-location over {} seeds at L = {}: {} ({} seeds with both minima in one bin)\n",
        r.accuracy.size(), r.length, r.verdict, r.seeds_same_bin);
    out += fmt::format("rank correlation of accuracy and influence by depth: mean {:.3f}",
                       r.rho_interval.mean);
    if (std::isfinite(r.rho_interval.low))
      out +=
          fmt::format(", 95% interval [{:.3f}, {:.3f}]", r.rho_interval.low, r.rho_interval.high);
    out += fmt::format("\nlowest mean influence at depth {}%\n", r.influence_minimum);
    return out;
  });
  if (!o.plot.empty()) {
    Figure f;
    f.width = 1100;
    f.height = 420;
    f.panels = {
        by_depth_panel(r, r.accuracy, fmt::format("accuracy (L = {})", r.length), "exact match"),
        by_depth_panel(r, r.influence, "influence on the queried " + needle_word(r.inputs),
                       "share of the answer's influence")};
    render_figure(f, o.plot);
  }
  return r;
}

}  // namespace posbias
