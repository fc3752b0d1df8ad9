#include "posbias/llm/llm_summary.h"

#include <cmath>
#include <set>
#include <sstream>

#include "posbias/core/csv.h"
#include "posbias/core/plot.h"
#include "posbias/llm/wilson.h"

namespace posbias {
namespace {

using nlohmann::json;

struct Tally {
  std::int64_t n = 0, strict = 0, lenient = 0;
  void add(const ResultRow& r) {
    ++n;
    strict += r.strict;
    lenient += r.lenient;
  }
};

double rate(std::int64_t k, std::int64_t n) {
  return n ? static_cast<double>(k) / static_cast<double>(n) : 0.0;
}

json tally_json(const Tally& t) {
  const Interval s = wilson_interval(t.strict, t.n), l = wilson_interval(t.lenient, t.n);
  return json{{"n", t.n},
              {"strict", rate(t.strict, t.n)},
              {"strict_ci", {s.low, s.high}},
              {"lenient", rate(t.lenient, t.n)},
              {"lenient_ci", {l.low, l.high}}};
}

}  // namespace

json summarize_suite(const std::string& suite, const std::string& model,
                     const std::vector<Probe>& probes, const std::vector<std::string>& hashes,
                     const std::map<std::string, ResultRow>& rows) {
  std::map<int, std::map<int, Tally>> by_hop;    // length -> hops (0 = all) -> tally
  std::map<int, std::map<int, Tally>> by_depth;  // length -> depth percent -> tally
  std::int64_t answered = 0, failed = 0, missing = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const auto it = rows.find(hashes[i]);
    if (it == rows.end()) {
      ++missing;
      continue;
    }
    if (!it->second.ok) {
      ++failed;
      continue;
    }
    ++answered;
    const Probe& p = probes[i];
    if (p.hops > 0) by_hop[p.length][p.hops].add(it->second);
    by_hop[p.length][0].add(it->second);
    by_depth[p.length][static_cast<int>(std::lround(p.depth * 10)) * 10].add(it->second);
  }
  json j{{"suite", suite},       {"model", model},   {"prompts", probes.size()},
         {"answered", answered}, {"failed", failed}, {"missing", missing}};
  j["strict"] = json::object();
  j["lenient"] = json::object();
  j["by_length"] = json::array();
  j["by_depth"] = json::array();
  for (const auto& [len, hops] : by_hop) {
    for (const auto& [h, t] : hops) {
      const std::string key = h ? std::to_string(h) : "all";
      j["strict"][std::to_string(len)][key] = rate(t.strict, t.n);
      j["lenient"][std::to_string(len)][key] = rate(t.lenient, t.n);
      json row = tally_json(t);
      row["length"] = len;
      row["hops"] = h ? json(h) : json("all");
      j["by_length"].push_back(row);
    }
  }
  for (const auto& [len, depths] : by_depth) {
    for (const auto& [d, t] : depths) {
      json row = tally_json(t);
      row["length"] = len;
      row["depth"] = d;
      j["by_depth"].push_back(row);
    }
  }
  return j;
}

std::string summary_csv(const std::vector<json>& summaries) {
  std::ostringstream out;
  out << "suite,model,group,length,hops,depth,n,strict,strict_low,strict_high,lenient,"
         "lenient_low,lenient_high\n";
  for (const json& s : summaries) {
    for (const auto& [rows, group] : {std::pair{"by_length", "length"}, {"by_depth", "depth"}}) {
      for (const json& r : s[rows]) {
        out << s["suite"].get<std::string>() << ',' << csv_quoted(s["model"].get<std::string>())
            << ',' << group << ',' << r["length"] << ','
            << (r.contains("hops")
                    ? (r["hops"].is_string() ? r["hops"].get<std::string>() : r["hops"].dump())
                    : "")
            << ',' << (r.contains("depth") ? r["depth"].dump() : "") << ',' << r["n"] << ','
            << r["strict"] << ',' << r["strict_ci"][0] << ',' << r["strict_ci"][1] << ','
            << r["lenient"] << ',' << r["lenient_ci"][0] << ',' << r["lenient_ci"][1] << '\n';
      }
    }
  }
  return out.str();
}

std::vector<std::string> plot_summary(const json& summary, const std::string& stem,
                                      const std::string& score) {
  const std::string suite = summary["suite"].get<std::string>();
  std::vector<std::string> stems;
  auto panel = [&](const std::string& title, const std::string& xlabel) {
    Panel p;
    p.title = title;
    p.xlabel = xlabel;
    p.ylabel = score + " accuracy";
    p.ymin = 0;
    p.ymax = 1.02;
    p.key = "bottom left";
    return p;
  };
  // One summary row as a point of `s`, with its Wilson interval as a band when `band`.
  auto add_point = [&](Series& s, double x, const json& r, bool band) {
    s.x.push_back(x);
    s.y.push_back(r[score].get<double>());
    if (band) {
      s.y_low.push_back(r[score + "_ci"][0].get<double>());
      s.y_high.push_back(r[score + "_ci"][1].get<double>());
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
      panel(suite + " suite, " + summary["model"].get<std::string>() + ": accuracy against length",
            suite == "needle" ? "key-value pairs (log scale)" : "input length (tokens, log scale)");
  len.log_x = true;
  std::map<std::string, Series> curves;
  for (const json& r : summary["by_length"]) {
    const std::string key = r["hops"].is_string() ? "all" : r["hops"].dump();
    Series& s = curves[key];
    s.title = key == "all" ? (suite == "needle" ? "all depths" : "all hops") : key + "-hop";
    s.style = "linespoints";
    s.line_width = key == "all" ? 3 : 1;
    add_point(s, r["length"].get<double>(), r, key == "all");
  }
  for (auto& [key, s] : curves) len.series.push_back(std::move(s));
  len.ylabel +=
      " (band: 95% Wilson interval" + std::string(curves.size() > 1 ? ", all hops)" : ")");
  render(std::move(len), "length");

  // Accuracy against depth: one curve per length (the U-curve); bands for at most two.
  Panel dep = panel(suite + " suite: accuracy against the answer's depth in the context",
                    "depth of the answer (% of the context)");
  dep.xmin = -2;
  dep.xmax = 102;
  std::set<int> lengths;
  for (const json& r : summary["by_depth"]) lengths.insert(r["length"].get<int>());
  const bool bands = lengths.size() <= 2;
  std::map<int, Series> by_len;
  for (const json& r : summary["by_depth"]) {
    const int l = r["length"].get<int>();
    Series& s = by_len[l];
    s.title = std::to_string(l) + (suite == "needle" ? " pairs" : " tokens");
    s.style = "linespoints";
    add_point(s, r["depth"].get<double>(), r, bands);
  }
  for (auto& [l, s] : by_len) dep.series.push_back(std::move(s));
  if (bands) dep.ylabel += " (band: 95% Wilson interval)";
  render(std::move(dep), "depth");
  return stems;
}

}  // namespace posbias
