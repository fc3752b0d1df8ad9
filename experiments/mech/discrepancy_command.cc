#include "experiments/mech/discrepancy_command.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "experiments/mech/head_search_record.h"
#include "experiments/mech/trained_discrepancy_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/core/memory.h"
#include "posbias/core/parse.h"
#include "posbias/core/progress.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {
namespace {

void check_angle(double v, const char* what) {
  if (!std::isfinite(v))
    throw std::invalid_argument(std::string(what) + " must be a finite number");
}

}  // namespace

SweepResult sweep_construction(const ConstructionSweep& s) {
  const Construction c = s.function;
  if (!std::isnan(s.theta)) check_angle(s.theta, "--theta");
  check_angle(s.omega, "--omega");
  if (s.count < 1 || s.count > 100000)
    throw std::invalid_argument("--count must be in 1..100000, got " + std::to_string(s.count));
  for (int n : s.lengths) {
    if (n < 2 || n > 65536)
      throw std::invalid_argument("--lengths must be in 2..65536, got " + std::to_string(n));
    validate_spec(construction_task(c), 1, n, Variant::kStandard);
    require_memory(construction_bytes(s.count, n),
                   "the " + std::string(construction_name(c)) + " construction on " +
                       std::to_string(s.count) + " inputs of length " + std::to_string(n),
                   "use a smaller --count or shorter --lengths", s.memory_budget_gb);
  }
  const bool auto_theta = std::isnan(s.theta);
  SweepResult out;
  out.function = std::string(construction_name(c));
  out.task = std::string(task_name(construction_task(c)));
  out.auto_theta = auto_theta;
  out.theta = s.theta;
  out.omega = s.omega;
  out.count = s.count;
  out.seed = s.seed;
  Progress progress(std::string(construction_name(c)) + " construction",
                    static_cast<std::int64_t>(s.lengths.size()));
  for (std::size_t i = 0; i < s.lengths.size(); ++i) {
    const int n = s.lengths[i];
    const double theta =
        auto_theta ? (c == Construction::kRetrieval ? 0.0 : std::numbers::pi / n) : s.theta;
    const ConstructionResult r = run_construction(
        c, make_dataset({construction_task(c), {1}, n, s.count, s.seed}), theta, s.omega);
    double lo = INFINITY, mean = 0, correct = 0;
    for (std::size_t e = 0; e < r.discrepancy.size(); ++e) {
      lo = std::min(lo, r.discrepancy[e]);
      mean += r.discrepancy[e];
      correct += r.correct[e] ? 1 : 0;
    }
    const double total = static_cast<double>(r.discrepancy.size());
    out.points.push_back(
        {n, theta, lo, mean / total, correct / total, construction_bound(c, n, theta, s.omega)});
    progress.update(static_cast<std::int64_t>(i + 1));
  }
  progress.finish();
  std::vector<double> x, y;
  for (const SweepPoint& p : out.points) x.push_back(p.length), y.push_back(p.discrepancy_min);
  out.slope = fit_power_law(x, y, SweepResult::kSlopeFrom, SweepResult::kSlopeTo);
  return out;
}

nlohmann::json to_json(const SweepResult& r) {
  nlohmann::json points = nlohmann::json::array();
  for (const SweepPoint& p : r.points) {
    points.push_back({{"length", p.length},
                      {"theta", p.theta},
                      {"discrepancy_min", p.discrepancy_min},
                      {"discrepancy_mean", p.discrepancy_mean},
                      {"accuracy", p.accuracy},
                      {"bound", p.bound}});
  }
  nlohmann::json out = {{"function", r.function}, {"task", r.task}, {"omega", r.omega},
                        {"count", r.count},       {"seed", r.seed}, {"points", points}};
  if (r.auto_theta) {
    out["theta"] = r.function == "retrieval" ? "0" : "pi/n";
  } else {
    out["theta"] = r.theta;
  }
  out["slope"] = to_json(exponent_record(r.slope, SweepResult::kSlopeFrom));
  out["slope"]["to"] = SweepResult::kSlopeTo;
  return out;
}

Figure construction_figure(const std::vector<SweepResult>& results) {
  Figure f;
  for (const SweepResult& r : results) {
    Panel p;
    const std::string& fn = r.function;
    const std::string theta_text =
        r.auto_theta ? (fn == "retrieval" ? "0" : "pi/n") : std::to_string(r.theta);
    p.title = fn + " construction (" + r.task + " inputs, θ = " + theta_text + ")";
    p.xlabel = "input length n (log scale)";
    p.ylabel = "discrepancy: top − second logit (min over inputs)";
    p.log_x = true;
    p.log10_y = true;
    Series measured, bound, accuracy;
    measured.title = "measured";
    measured.style = "points";
    bound.title = fn == "retrieval" ? "rate 1 − cos(ω − nθ)" : "bound min(1 − cos θ, π²/(2n²))";
    for (const SweepPoint& pt : r.points) {
      const double n = pt.length;
      measured.x.push_back(n);
      measured.y.push_back(std::log10(pt.discrepancy_min));
      bound.x.push_back(n);
      bound.y.push_back(std::log10(pt.bound));
      accuracy.x.push_back(n);
      accuracy.y.push_back(pt.accuracy);
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
    if (fn != "retrieval" && !std::isnan(r.slope.exponent)) {
      p.title += fmt::format("; slope over n = {}..{}: {:.3f}", SweepResult::kSlopeFrom,
                             SweepResult::kSlopeTo, r.slope.exponent);
    }
    f.panels.push_back(std::move(p));
  }
  f.width = 700 * static_cast<int>(results.size());
  return f;
}

namespace {

std::string exponent_text(const PowerLawFit& f) {
  if (!std::isfinite(f.exponent)) return "none (fewer than 2 points)";
  if (!std::isfinite(f.low)) return fmt::format("{:.3f} over {} points", f.exponent, f.points);
  return fmt::format("{:.3f} [{:.3f}, {:.3f}] over {} points", f.exponent, f.low, f.high, f.points);
}

// The lines a person at a terminal gets instead of the JSON, one per mode.
std::string discrepancy_summary(const SweepResult& r) {
  std::string out = fmt::format("{} construction on {} inputs:\n", r.function, r.task);
  for (const SweepPoint& p : r.points)
    out += fmt::format("  n {}: min discrepancy {:.4g} (bound {:.4g}), accuracy {:.3f}\n", p.length,
                       p.discrepancy_min, p.bound, p.accuracy);
  return out + fmt::format("min discrepancy ~ n^b, n {}..{}: b = {}\n", SweepResult::kSlopeFrom,
                           SweepResult::kSlopeTo, exponent_text(r.slope));
}

std::string discrepancy_summary(const HeadSearchSweepResult& r) {
  std::string out = "head search, best hard gap found against the construction's:\n";
  for (const HeadSearchPoint& p : r.points)
    out += fmt::format("  n {}: best {:.4g}, construction {:.4g}\n", p.length, p.best_gap,
                       p.construction_gap);
  return out + fmt::format("best gap ~ n^b: b = {}; construction: b = {}\n",
                           exponent_text(r.exponent), exponent_text(r.construction_exponent));
}

std::string discrepancy_summary(const TrainedDiscrepancyResult& r) {
  std::string out = fmt::format("{} run {}, step {}: accuracy by length:", r.task, r.run, r.step);
  for (std::size_t i = 0; i < r.lengths.size() && i < r.accuracy.size(); ++i)
    out += fmt::format(" {}: {:.3f}", r.lengths[i], r.accuracy[i]);
  out += "\n";
  for (const KeyHeadGaps& h : r.heads) {
    out += fmt::format("  {} ({}): median gap", head_name(h.layer, h.head), h.kind);
    for (const GapPoint& p : h.points) out += fmt::format(" {}: {:.4g}", p.length, p.median);
    out += fmt::format("; ~ length^b past {} tokens: b = {}\n", r.train_length,
                       exponent_text(h.exponent));
  }
  return out;
}

}  // namespace

nlohmann::json run_discrepancy(const DiscrepancyOptions& o) {
  nlohmann::json result;
  Figure figure;
  std::string summary;
  if (const auto* search = std::get_if<HeadSearchSweep>(&o.mode)) {
    const HeadSearchSweepResult r = sweep_head_search(*search);
    result = to_json(head_search_record(r));
    summary = discrepancy_summary(r);
    if (!o.plot.empty()) figure = head_search_figure(r);
  } else if (const auto* trained = std::get_if<TrainedDiscrepancyOptions>(&o.mode)) {
    const TrainedDiscrepancyResult r = measure_trained_discrepancy(*trained);
    result = to_json(trained_discrepancy_record(r));
    summary = discrepancy_summary(r);
    if (!o.plot.empty()) figure = trained_discrepancy_figure(r);
  } else {
    const SweepResult r = sweep_construction(std::get<ConstructionSweep>(o.mode));
    result = to_json(r);
    summary = discrepancy_summary(r);
    if (!o.plot.empty()) figure = construction_figure({r});
  }
  // Without --json on a terminal: the summary and how to get the JSON (core/json_result.h).
  write_json_result(o.json, result.dump(2) + "\n", [&summary] { return summary; });
  if (!o.plot.empty()) render_figure(figure, o.plot);
  return result;
}

}  // namespace posbias
