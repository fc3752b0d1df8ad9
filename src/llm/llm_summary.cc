#include "posbias/llm/llm_summary.h"

#include <cmath>
#include <set>

#include "posbias/core/csv.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/plot.h"
#include "posbias/llm/llm_summary_record.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/stats/wilson.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {
namespace {

using nlohmann::json;

struct Tally {
  std::int64_t n = 0, strict = 0, lenient = 0;
  double chance_sum = 0;
  std::vector<double> logprobs;  // of the rows that have one
  void add(const ResultRow& r, double chance) {
    ++n;
    strict += r.strict;
    lenient += r.lenient;
    chance_sum += chance;
    if (r.logprob) logprobs.push_back(*r.logprob);
  }
};

double rate(std::int64_t k, std::int64_t n) {
  return n ? static_cast<double>(k) / static_cast<double>(n) : 0.0;
}

AccuracyRow row_of(const Tally& t, int length) {
  AccuracyRow r;
  r.length = length;
  r.n = t.n;
  r.strict = rate(t.strict, t.n);
  r.lenient = rate(t.lenient, t.n);
  r.strict_ci = wilson_interval(t.strict, t.n);
  r.lenient_ci = wilson_interval(t.lenient, t.n);
  r.chance = t.n ? t.chance_sum / static_cast<double>(t.n) : 0.0;
  if (!t.logprobs.empty()) {
    const SeedInterval m = seed_interval(t.logprobs);  // mean ∓ t(0.975, n−1)·s/√n
    r.logprob_n = m.n;
    r.logprob = m.mean;
    r.logprob_ci = {m.low, m.high};
  }
  return r;
}

std::string hops_text(const AccuracyRow& r) {
  return r.hops ? std::to_string(r.hops) : kAllHopsKey;
}

}  // namespace

double SuiteSummary::accuracy(ScoreRule rule, int length, int hops) const {
  for (const AccuracyRow& r : by_length) {
    if (r.length == length && r.hops == hops)
      return rule == ScoreRule::kStrict ? r.strict : r.lenient;
  }
  return NAN;
}

bool SuiteSummary::has_logprobs() const {
  for (const AccuracyRow& r : by_length) {
    if (r.logprob_n > 0) return true;
  }
  return false;
}

SuiteSummary summarize_suite(const std::string& suite, const std::string& model,
                             const std::vector<Probe>& probes,
                             const std::vector<std::string>& hashes,
                             const std::map<std::string, ResultRow>& rows) {
  std::map<int, std::map<int, Tally>> by_hop;    // length -> hops (0 = all) -> tally
  std::map<int, std::map<int, Tally>> by_depth;  // length -> depth percent -> tally
  SuiteSummary out;
  out.suite = suite;
  out.model = model;
  out.prompts = static_cast<std::int64_t>(probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const auto it = rows.find(hashes[i]);
    if (it == rows.end()) {
      ++out.missing;
      continue;
    }
    if (!it->second.ok) {
      ++out.failed;
      continue;
    }
    ++out.answered;
    const Probe& p = probes[i];
    if (p.hops > 0) by_hop[p.length][p.hops].add(it->second, p.chance);
    by_hop[p.length][0].add(it->second, p.chance);
    by_depth[p.length][static_cast<int>(std::lround(p.depth * 10)) * 10].add(it->second, p.chance);
  }
  for (const auto& [len, hops] : by_hop) {
    for (const auto& [h, t] : hops) {  // all hops (0) first, then each count
      out.by_length.push_back(row_of(t, len));
      out.by_length.back().hops = h;
    }
  }
  for (const auto& [len, depths] : by_depth) {
    for (const auto& [d, t] : depths) {
      out.by_depth.push_back(row_of(t, len));
      out.by_depth.back().depth = d;
    }
  }
  return out;
}

json to_json(const SuiteSummary& s) { return to_json(suite_summary_record(s)); }

namespace {

// A row of a suite's summary, by length or by depth: a line of the CSV.
struct SuiteRow {
  const SuiteSummary* suite = nullptr;
  const AccuracyRow* row = nullptr;
  bool by_depth = false;
};

// The columns of an interval's estimate (named `name`) and its bounds (`name`_low, `name`_high),
// in `number`'s text.
std::vector<CsvColumn<SuiteRow>> interval_columns(const std::string& name,
                                                  double AccuracyRow::*estimate,
                                                  Interval AccuracyRow::*interval,
                                                  CsvNumber number) {
  using R = SuiteRow;
  return {{name, [=](const R& r) { return number(r.row->*estimate); }},
          {name + "_low", [=](const R& r) { return number((r.row->*interval).low); }},
          {name + "_high", [=](const R& r) { return number((r.row->*interval).high); }}};
}

// Numbers as JSON writes them (the shortest text that reads back); "null" for a value there is
// none of.
std::string json_number(double v) { return json(v).dump(); }

std::vector<CsvColumn<SuiteRow>> suite_row_columns() {
  using R = SuiteRow;
  std::vector<CsvColumn<R>> columns = {
      {"suite", [](const R& r) { return r.suite->suite; }},
      {"model", [](const R& r) { return csv_quoted(r.suite->model); }},
      {"group", [](const R& r) { return std::string(r.by_depth ? "depth" : "length"); }},
      {"length", [](const R& r) { return std::to_string(r.row->length); }},
      {"hops", [](const R& r) { return r.by_depth ? "" : hops_text(*r.row); }},
      {"depth", [](const R& r) { return r.by_depth ? std::to_string(r.row->depth) : ""; }},
      {"n", [](const R& r) { return std::to_string(r.row->n); }}};
  columns =
      csv_concat(columns, interval_columns(to_string(ScoreRule::kStrict), &AccuracyRow::strict,
                                           &AccuracyRow::strict_ci, &json_number));
  columns =
      csv_concat(columns, interval_columns(to_string(ScoreRule::kLenient), &AccuracyRow::lenient,
                                           &AccuracyRow::lenient_ci, &json_number));
  columns = csv_concat(columns, interval_columns("logprob", &AccuracyRow::logprob,
                                                 &AccuracyRow::logprob_ci, &csv_shortest_json));
  columns.push_back({"logprob_n", [](const R& r) {
                       return r.row->logprob_n ? std::to_string(r.row->logprob_n) : "";
                     }});
  return columns;
}

}  // namespace

std::string summary_csv(const std::vector<SuiteSummary>& summaries) {
  std::vector<SuiteRow> rows;
  for (const SuiteSummary& s : summaries)
    for (const bool depth : {false, true})
      for (const AccuracyRow& r : depth ? s.by_depth : s.by_length) rows.push_back({&s, &r, depth});
  return csv_text(suite_row_columns(), rows);
}

std::vector<std::string> plot_summary(const SuiteSummary& summary, const std::string& stem,
                                      ScoreRule rule) {
  const std::string& suite = summary.suite;
  const bool strict = rule == ScoreRule::kStrict;
  std::vector<std::string> stems;
  auto panel = [&](const std::string& title, const std::string& xlabel) {
    Panel p;
    p.title = title;
    p.xlabel = xlabel;
    p.ylabel = to_string(rule) + " accuracy";
    p.ymin = 0;
    p.ymax = 1.02;
    return p;
  };
  // One summary row as a point of `s`, with its Wilson interval as a band when `band`.
  auto add_point = [&](Series& s, double x, const AccuracyRow& r, bool band) {
    s.x.push_back(x);
    s.y.push_back(strict ? r.strict : r.lenient);
    if (band) {
      const Interval& ci = strict ? r.strict_ci : r.lenient_ci;
      s.y_low.push_back(ci.low);
      s.y_high.push_back(ci.high);
    }
  };
  auto render = [&](Panel p, const std::string& what) {
    if (p.series.empty()) return;
    Figure f;
    f.panels = {std::move(p)};
    render_figure(f, stem + "_" + suite + "_" + what);
    stems.push_back(stem + "_" + suite + "_" + what);
  };

  // Accuracy against length: one curve per hop, and all hops with its band (one band keeps
  // the figure readable; every interval is in the data).
  Panel len =
      panel(suite + " suite, " + summary.model + ": accuracy against length",
            suite == "needle" ? "key-value pairs (log scale)" : "input length (tokens, log scale)");
  len.log_x = true;
  std::map<std::string, Series> curves;
  for (const AccuracyRow& r : summary.by_length) {
    const std::string key = hops_text(r);
    Series& s = curves[key];
    const bool hop_suite = suite == "number" || suite == "letter";
    s.title = key == kAllHopsKey && !hop_suite ? "all depths" : hop_key_title(key);
    if (key != kAllHopsKey) s.order = r.hops;  // hop counts: the sequential map, named on its bar
    s.style = "linespoints";
    s.line_width = key == kAllHopsKey ? 3 : 1;
    add_point(s, r.length, r, key == kAllHopsKey);
  }
  for (auto& [key, s] : curves) len.series.push_back(std::move(s));
  Series chance;  // all hops: a uniform guess among the prompt's candidate answers
  chance.title = "chance";
  chance.style = "lines dt 2";
  chance.line_width = 1;
  for (const AccuracyRow& r : summary.by_length) {
    if (r.hops != 0) continue;
    chance.x.push_back(r.length);
    chance.y.push_back(r.chance);
  }
  if (!chance.x.empty()) len.series.push_back(std::move(chance));
  len.order_label = kHopsOrderLabel;
  len.ylabel +=
      " (band: 95% Wilson interval" + std::string(curves.size() > 1 ? ", all hops)" : ")");
  render(std::move(len), "length");

  // Accuracy against depth: one curve per length (Liu et al.'s U-curve); bands for at most two.
  Panel dep = panel(suite + " suite: accuracy against the answer's depth in the context",
                    "depth of the answer (% of the context)");  // x: the depths measured
  std::set<int> lengths;
  for (const AccuracyRow& r : summary.by_depth) lengths.insert(r.length);
  const bool bands = lengths.size() <= 2;
  std::map<int, Series> by_len;
  for (const AccuracyRow& r : summary.by_depth) {
    const int l = r.length;
    Series& s = by_len[l];
    s.title = std::to_string(l) + (suite == "needle" ? " pairs" : " tokens");
    s.order = l;
    s.style = "linespoints";
    add_point(s, r.depth, r, bands);
  }
  for (auto& [l, s] : by_len) dep.series.push_back(std::move(s));
  dep.order_label = suite == "needle" ? "pairs in the context" : "context length (tokens)";
  if (bands) dep.ylabel += " (band: 95% Wilson interval)";
  render(std::move(dep), "depth");

  // The mean completion log-probability against depth, one curve per length, each with its
  // 95% Student-t band: a continuous measure of the same U, when the endpoint returned them.
  if (summary.has_logprobs()) {
    Panel lp;
    lp.title = suite + " suite: the log-probability of the model's own answer against depth";
    lp.xlabel = "depth of the answer (% of the context)";
    lp.ylabel = "mean completion log-probability (nats; band: 95% Student-t interval)";
    std::map<int, Series> curves_lp;
    for (const AccuracyRow& r : summary.by_depth) {
      if (r.logprob_n == 0) continue;
      Series& s = curves_lp[r.length];
      s.title = std::to_string(r.length) + (suite == "needle" ? " pairs" : " tokens");
      s.order = r.length;
      s.style = "linespoints";
      s.x.push_back(r.depth);
      s.y.push_back(r.logprob);
      // A point without an interval (one prompt) draws its band as the point.
      s.y_low.push_back(std::isfinite(r.logprob_ci.low) ? r.logprob_ci.low : r.logprob);
      s.y_high.push_back(std::isfinite(r.logprob_ci.high) ? r.logprob_ci.high : r.logprob);
    }
    for (auto& [l, s] : curves_lp) lp.series.push_back(std::move(s));
    lp.order_label = suite == "needle" ? "pairs in the context" : "context length (tokens)";
    render(std::move(lp), "logprob");
  }
  return stems;
}

}  // namespace posbias
