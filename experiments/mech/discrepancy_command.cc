#include "experiments/mech/discrepancy_command.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "experiments/mech/head_search_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/core/memory.h"
#include "posbias/core/parse.h"
#include "posbias/core/progress.h"
#include "posbias/core/required_fields.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/trained_discrepancy.h"
#include "posbias/mech/trained_discrepancy_record.h"
#include "posbias/runfiles/result_file.h"

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
  out.function = c;
  out.task = construction_task(c);
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
  out.slope = sweep_slope(fit_power_law(x, y, SweepResult::kSlopeFrom, SweepResult::kSlopeTo));
  return out;
}

Figure construction_figure(const std::vector<SweepResult>& results) {
  Figure f;
  for (const SweepResult& r : results) {
    Panel p;
    const std::string fn(construction_name(r.function));
    const std::string theta_text =
        r.auto_theta ? auto_theta_name(r.function) : std::to_string(r.theta);
    p.title = fn + " construction (" + std::string(task_name(r.task)) +
              " inputs, θ = " + theta_text + ")";
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
    if (r.function != Construction::kRetrieval && !std::isnan(r.slope.value)) {
      p.title += fmt::format("; slope over n = {}..{}: {:.3f}", SweepResult::kSlopeFrom,
                             SweepResult::kSlopeTo, r.slope.value);
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

// The sweep's slope as a fit (for exponent_text).
PowerLawFit slope_fit(const SweepSlope& s) {
  PowerLawFit fit;
  fit.exponent = s.value;
  fit.low = s.ci ? s.ci->at(0) : NAN;
  fit.high = s.ci ? s.ci->at(1) : NAN;
  fit.points = s.points.value_or(0);
  return fit;
}

// The lines a person at a terminal gets instead of the JSON, one per mode.
std::string discrepancy_summary(const SweepResult& r) {
  std::string out = fmt::format("{} construction on {} inputs:\n", construction_name(r.function),
                                task_name(r.task));
  for (const SweepPoint& p : r.points)
    out += fmt::format("  n {}: min discrepancy {:.4g} (bound {:.4g}), accuracy {:.3f}\n", p.length,
                       p.discrepancy_min, p.bound, p.accuracy);
  return out + fmt::format("min discrepancy ~ n^b, n {}..{}: b = {}\n", SweepResult::kSlopeFrom,
                           SweepResult::kSlopeTo, exponent_text(slope_fit(r.slope)));
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
  std::string out =
      fmt::format("{} run {}, step {}: accuracy by length:", task_name(r.task), r.run, r.step);
  for (std::size_t i = 0; i < r.lengths.size() && i < r.accuracy.size(); ++i)
    out += fmt::format(" {}: {:.3f}", r.lengths[i], r.accuracy[i]);
  out += "\n";
  for (const KeyHeadGaps& h : r.heads) {
    out += fmt::format("  {} ({}): median gap", head_name(h.layer, h.head),
                       key_head_kind_name(h.kind));
    for (const GapPoint& p : h.points) out += fmt::format(" {}: {:.4g}", p.length, p.median);
    out += fmt::format("; ~ length^b past {} tokens: b = {}\n", r.train_length,
                       exponent_text(h.exponent));
  }
  return out;
}

nlohmann::json result_json(const SweepResult& r) { return to_json(r); }
nlohmann::json result_json(const HeadSearchSweepResult& r) {
  return to_json(head_search_record(r));
}
nlohmann::json result_json(const TrainedDiscrepancyResult& r) {
  return to_json(trained_discrepancy_record(r));
}

Figure result_figure(const SweepResult& r) { return construction_figure({r}); }
Figure result_figure(const HeadSearchSweepResult& r) {
  return head_search_figure(head_search_record(r));
}
Figure result_figure(const TrainedDiscrepancyResult& r) { return trained_discrepancy_figure(r); }

}  // namespace

DiscrepancyResult run_discrepancy(const DiscrepancyOptions& o) {
  DiscrepancyResult result;
  if (const auto* search = std::get_if<HeadSearchSweep>(&o.mode)) {
    result = sweep_head_search(*search);
  } else if (const auto* trained = std::get_if<TrainedDiscrepancyOptions>(&o.mode)) {
    result = measure_trained_discrepancy(*trained);
  } else {
    result = sweep_construction(std::get<ConstructionSweep>(o.mode));
  }
  std::visit(
      [&o](const auto& r) {
        // Without --json on a terminal: the summary and how to get the JSON (core/json_result.h).
        write_json_result(o.json, result_json(r).dump(2) + "\n",
                          [&r] { return discrepancy_summary(r); });
        if (!o.plot.empty()) render_figure(result_figure(r), o.plot);
      },
      result);
  return result;
}

DiscrepancyFile discrepancy_file_kind(const nlohmann::json& j) {
  if (holds_required_fields(trained_discrepancy_record_fields(), j))
    return DiscrepancyFile::kTrained;
  if (holds_head_search_record(j)) return DiscrepancyFile::kHeadSearch;
  return DiscrepancyFile::kConstruction;
}

void redraw_discrepancy(const std::string& file, const std::string& plot) {
  const nlohmann::json j = read_result_json(file);
  const DiscrepancyFile kind = discrepancy_file_kind(j);
  if (kind == DiscrepancyFile::kTrained)
    result_error(file,
                 "is a discrepancy --run result; --redraw draws construction and --search "
                 "results (re-measure with --run --plot)");
  const Figure figure =
      kind == DiscrepancyFile::kHeadSearch
          ? head_search_figure(read_result_table(head_search_record_from_json, j, file))
          : construction_figure({read_result_table(sweep_result_from_json, j, file)});
  render_figure(figure, plot);
}

}  // namespace posbias
