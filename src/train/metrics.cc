#include "posbias/train/metrics.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "posbias/core/plot.h"

namespace posbias {

std::vector<MetricsRow> read_metrics(const std::filesystem::path& path) {
  std::vector<MetricsRow> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > (1u << 20)) continue;
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      MetricsRow r;
      r.step = j.at("step").get<std::int64_t>();
      r.loss = j.at("loss").is_null() ? NAN : j.at("loss").get<double>();
      r.lr = j.at("lr").get<double>();
      for (const auto& [k, v] : j.at("acc").items()) r.acc[k] = v.get<double>();
      r.line = line;
      rows.push_back(std::move(r));
    } catch (const nlohmann::json::exception&) {
      // a partial last line from a killed run; the resume rewrites the file without it
    }
  }
  return rows;
}

std::optional<std::int64_t> first_crossing(const std::vector<MetricsRow>& rows,
                                           const std::string& key, double threshold) {
  for (const MetricsRow& r : rows) {
    const auto it = r.acc.find(key);
    if (it != r.acc.end() && it->second >= threshold) return r.step;
  }
  return std::nullopt;
}

nlohmann::json metrics_summary(const std::vector<MetricsRow>& rows) {
  nlohmann::json j;
  if (rows.empty()) return j;
  for (double threshold : {0.9, 0.99}) {
    nlohmann::json c = nlohmann::json::object();
    for (const auto& [key, v] : rows.back().acc) {
      const auto step = first_crossing(rows, key, threshold);
      c[key] = step ? nlohmann::json(*step) : nlohmann::json();
    }
    j[threshold == 0.9 ? "crossing_0.9" : "crossing_0.99"] = c;
  }
  j["final"] = rows.back().acc;
  j["final_step"] = rows.back().step;
  return j;
}

void render_training_figures(const std::vector<MetricsRow>& rows, const std::string& title,
                             const std::filesystem::path& stem) {
  if (rows.empty()) return;
  Panel acc;
  acc.title = title + ": held-out accuracy";
  acc.xlabel = "training step";
  acc.ylabel = "accuracy at the training length";
  acc.key = "bottom right";
  acc.ymin = 0;
  acc.ymax = 1.02;
  for (const auto& [key, v] : rows.back().acc) {
    Series s;
    s.title = key == "all" ? "all hops" : key + "-hop";
    if (key == "all") s.line_width = 1;
    for (const MetricsRow& r : rows) {
      if (!r.acc.count(key)) continue;
      s.x.push_back(static_cast<double>(r.step));
      s.y.push_back(r.acc.at(key));
    }
    acc.series.push_back(std::move(s));
  }
  Figure fa;
  fa.panels = {acc};
  render_figure(fa, stem.string() + "_accuracy");

  Panel loss;
  loss.title = title + ": training loss (answer token)";
  loss.xlabel = "training step";
  loss.ylabel = "cross-entropy (nats), log scale";
  loss.log10_y = true;
  Series s;
  s.title = "loss";
  for (const MetricsRow& r : rows) {
    if (!std::isfinite(r.loss) || r.loss <= 0) continue;
    s.x.push_back(static_cast<double>(r.step));
    s.y.push_back(std::log10(r.loss));
  }
  loss.series.push_back(std::move(s));
  Figure fl;
  fl.panels = {loss};
  render_figure(fl, stem.string() + "_loss");
}

}  // namespace posbias
