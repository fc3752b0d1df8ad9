#include "experiments/mech/head_search_sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <numbers>

#include "experiments/mech/trained_discrepancy_record.h"
#include "posbias/core/json_number.h"
#include "posbias/core/memory.h"
#include "posbias/core/progress.h"

namespace posbias {

double index_bound(double n) { return std::numbers::pi * std::numbers::pi / (2 * n * n); }

HeadSearchSweepResult sweep_head_search(const HeadSearchSweep& sweep) {
  const HeadSearchOptions& o = sweep.search;
  validate(o);
  if (sweep.lengths.empty()) throw std::invalid_argument("--lengths must name at least one n");
  double work = 0;
  for (int n : sweep.lengths) {
    if (n < 2 || n > 16384) {
      throw std::invalid_argument("--lengths must be in 2..16384 for the search, got " +
                                  std::to_string(n));
    }
    require_memory(head_search_bytes(o, n), "the head search at n = " + std::to_string(n),
                   "use shorter --lengths", sweep.memory_budget_gb);
    work += static_cast<double>(n) * (o.function == Construction::kIndex ? n : o.symbols);
  }
  const auto start = std::chrono::steady_clock::now();
  HeadSearchSweepResult out;
  out.sweep = sweep;
  // Progress counts cells × starts, so the ETA weighs long lengths by their cost (n² for index).
  constexpr std::int64_t kUnits = 100000;
  Progress progress(std::string(construction_name(o.function)) + " head search", kUnits);
  double done = 0;
  SearchHead previous;
  for (int n : sweep.lengths) {
    const double cells =
        static_cast<double>(n) * (o.function == Construction::kIndex ? n : o.symbols);
    const double before = done;
    SearchHead best;
    out.points.push_back(search_head(
        o, n, &best, out.points.empty() ? nullptr : &previous, [&](int starts_done, int starts) {
          done = before + cells * starts_done / starts;
          progress.update(static_cast<std::int64_t>(kUnits * done / work));
        }));
    previous = best;  // the next length continues from it
    done = before + cells;
  }
  progress.finish();
  std::vector<double> x, best, construction;
  for (const HeadSearchPoint& p : out.points) {
    x.push_back(static_cast<double>(p.length));
    best.push_back(p.best_gap);
    construction.push_back(p.construction_gap);
  }
  out.exponent = fit_power_law(x, best, sweep.fit_from);
  out.construction_exponent = fit_power_law(x, construction, sweep.fit_from);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

Figure head_search_figure(const HeadSearchSweepResult& r) {
  const HeadSearchOptions& o = r.sweep.search;
  const bool index = o.function == Construction::kIndex;
  Panel p;
  p.title =
      fmt::format("{} head search: {} frequencies, head dim {}", construction_name(o.function),
                  search_frequencies_name(o.frequencies), o.head_dim);
  if (std::isfinite(r.exponent.exponent)) {
    p.title += fmt::format("; exponent of the best gap {:.2f} [{:.2f}, {:.2f}]",
                           r.exponent.exponent, r.exponent.low, r.exponent.high);
  }
  p.xlabel = "input length n (log scale)";
  p.ylabel = "worst-case gap: top − second logit (log10)";
  p.log_x = true;
  p.log10_y = true;
  Series best, construction, single, bound;
  best.title = fmt::format("best of {} starts and the designs", o.starts);
  best.style = "linespoints";
  construction.title = index ? "construction θ = π/n: 1 − cos(π/n)" : "construction";
  construction.style = "linespoints";
  single.title = "one frequency θ = 2π/n: 1 − cos(2π/n)";
  bound.title = "bound π²/(2n²)";
  const auto add = [](Series& s, double x, double y) {
    if (y > 0) s.x.push_back(x), s.y.push_back(std::log10(y));
  };
  for (const HeadSearchPoint& pt : r.points) {
    const double n = static_cast<double>(pt.length);
    add(best, n, pt.best_gap);
    add(construction, n, pt.construction_gap);
    if (index) {
      add(single, n, pt.single_frequency_gap);
      add(bound, n, index_bound(n));
    }
  }
  p.series = {best, construction};
  if (index) p.series.push_back(single), p.series.push_back(bound);
  Figure f;
  f.panels.push_back(std::move(p));
  return f;
}

}  // namespace posbias
