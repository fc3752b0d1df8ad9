#include "experiments/mech/discrepancy_command.h"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "posbias/core/atomic_file.h"
#include "posbias/core/parse.h"
#include "posbias/core/progress.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {
namespace {

// Least-squares slope of log y against log x over points with x in [lo, hi] and y > 0.
double log_log_slope(const nlohmann::json& points, double lo, double hi) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  for (const auto& p : points) {
    const double x = p["length"].get<double>(), y = p["discrepancy_min"].get<double>();
    if (x < lo || x > hi || !(y > 0)) continue;
    const double lx = std::log(x), ly = std::log(y);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, n += 1;
  }
  if (n < 2) return NAN;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

void check_angle(double v, const char* what) {
  if (!std::isfinite(v))
    throw std::invalid_argument(std::string(what) + " must be a finite number");
}

}  // namespace

nlohmann::json sweep_construction(const ConstructionSweep& s) {
  const Construction c = parse_construction(s.function);
  if (!std::isnan(s.theta)) check_angle(s.theta, "--theta");
  check_angle(s.omega, "--omega");
  if (s.count < 1 || s.count > 100000)
    throw std::invalid_argument("--count must be in 1..100000, got " + std::to_string(s.count));
  for (int n : s.lengths) validate_spec(construction_task(c), 1, n, Variant::kStandard);
  const bool auto_theta = std::isnan(s.theta);
  nlohmann::json points = nlohmann::json::array();
  Progress progress(std::string(construction_name(c)) + " construction",
                    static_cast<std::int64_t>(s.lengths.size()));
  for (std::size_t i = 0; i < s.lengths.size(); ++i) {
    const int n = s.lengths[i];
    const double theta =
        auto_theta ? (c == Construction::kIndex ? std::numbers::pi / n : 0.0) : s.theta;
    const ConstructionResult r = run_construction(
        c, make_dataset({construction_task(c), {1}, n, s.count, s.seed}), theta, s.omega);
    double lo = INFINITY, mean = 0, correct = 0;
    for (std::size_t e = 0; e < r.discrepancy.size(); ++e) {
      lo = std::min(lo, r.discrepancy[e]);
      mean += r.discrepancy[e];
      correct += r.correct[e] ? 1 : 0;
    }
    const double total = static_cast<double>(r.discrepancy.size());
    points.push_back({{"length", n},
                      {"theta", theta},
                      {"discrepancy_min", lo},
                      {"discrepancy_mean", mean / total},
                      {"accuracy", correct / total},
                      {"bound", construction_bound(c, n, theta, s.omega)}});
    progress.update(static_cast<std::int64_t>(i + 1));
  }
  progress.finish();
  nlohmann::json out = {{"function", std::string(construction_name(c))},
                        {"task", std::string(task_name(construction_task(c)))},
                        {"omega", s.omega},
                        {"count", s.count},
                        {"seed", s.seed},
                        {"points", points}};
  if (auto_theta) {
    out["theta"] = c == Construction::kIndex ? "pi/n" : "0";
  } else {
    out["theta"] = s.theta;
  }
  const double slope = log_log_slope(points, 64, 4096);
  out["slope"] = {{"from", 64},
                  {"to", 4096},
                  {"value", std::isnan(slope) ? nlohmann::json() : nlohmann::json(slope)}};
  return out;
}

Figure construction_figure(const std::vector<nlohmann::json>& results) {
  Figure f;
  for (const auto& r : results) {
    Panel p;
    const std::string fn = r["function"],
                      theta_text = r["theta"].is_string()
                                       ? r["theta"].get<std::string>()
                                       : std::to_string(r["theta"].get<double>());
    p.title =
        fn + " construction (" + r["task"].get<std::string>() + " inputs, θ = " + theta_text + ")";
    p.xlabel = "input length n (log scale)";
    p.ylabel = "discrepancy: top − second logit (min over inputs)";
    p.log_x = true;
    p.log10_y = true;
    p.key = "bottom left";
    Series measured, bound, accuracy;
    measured.title = "measured";
    measured.style = "points";
    bound.title = fn == "index" ? "bound min(1 − cos θ, π²/(2n²))" : "DESIGN rate 1 − cos(ω − nθ)";
    for (const auto& pt : r["points"]) {
      const double n = pt["length"].get<double>();
      measured.x.push_back(n);
      measured.y.push_back(std::log10(pt["discrepancy_min"].get<double>()));
      bound.x.push_back(n);
      bound.y.push_back(std::log10(pt["bound"].get<double>()));
      accuracy.x.push_back(n);
      accuracy.y.push_back(pt["accuracy"].get<double>());
    }
    accuracy.title = "accuracy (right axis)";
    accuracy.style = "linespoints";
    accuracy.right_axis = true;
    p.y2label = "accuracy";
    p.y2min = 0;
    p.y2max = 1.05;
    p.series = {bound, measured, accuracy};
    double lo = INFINITY, hi = -INFINITY;
    for (double v : measured.y) {
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (std::isfinite(lo) && hi - lo < 0.5) {  // a flat curve: a decade around it, not a zoom
      p.ymin = std::floor(lo) - 1;
      p.ymax = std::ceil(hi) + 0.5;
    }
    if (fn == "index" && !r["slope"]["value"].is_null()) {
      char text[96];
      std::snprintf(text, sizeof text, "slope over n = 64..4096: %.3f",
                    r["slope"]["value"].get<double>());
      p.title += "; " + std::string(text);
    }
    f.panels.push_back(std::move(p));
  }
  f.width = 700 * static_cast<int>(results.size());
  return f;
}

nlohmann::json run_discrepancy(const DiscrepancyOptions& o) {
  nlohmann::json result;
  Figure figure;
  if (!o.run.empty()) {
    TrainedDiscrepancyOptions t;
    t.run = o.run;
    t.checkpoint = o.checkpoint;
    t.heads = o.heads;
    if (!o.lengths.empty()) t.lengths = parse_int_list(o.lengths, "--lengths", 2, 100000);
    if (o.count != 0) t.count = o.count;
    t.seed = o.seed;
    result = measure_trained_discrepancy(t);
    if (!o.plot.empty()) figure = trained_discrepancy_figure(result);
  } else {
    ConstructionSweep s = o.sweep;
    if (!o.lengths.empty()) s.lengths = parse_int_list(o.lengths, "--lengths", 2, 65536);
    if (o.count != 0) s.count = o.count;
    s.seed = o.seed;
    result = sweep_construction(s);
    if (!o.plot.empty()) figure = construction_figure({result});
  }
  write_output(o.json, result.dump(2) + "\n");
  if (!o.plot.empty()) render_figure(figure, o.plot);
  return result;
}

}  // namespace posbias
