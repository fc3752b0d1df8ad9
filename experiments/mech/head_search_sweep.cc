#include "experiments/mech/head_search_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

#include "posbias/core/json_number.h"
#include "posbias/core/memory.h"
#include "posbias/core/progress.h"
#include "posbias/mech/trained_discrepancy_record.h"

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

Figure head_search_figure(const HeadSearchRecord& r) {
  const bool index = r.function == Construction::kIndex;
  Panel p;
  p.title =
      fmt::format("{} head search: {} frequencies, head dim {}", construction_name(r.function),
                  search_frequencies_name(r.frequencies), r.head_dim);
  const ExponentRecord& e = r.exponent;
  if (std::isfinite(e.value)) {
    p.title += fmt::format("; exponent of the best gap {:.2f}", e.value);
    if (e.ci.size() == 2 && std::isfinite(e.ci[0]) && std::isfinite(e.ci[1]))
      p.title += fmt::format(" [{:.2f}, {:.2f}]", e.ci[0], e.ci[1]);
  }
  p.xlabel = "input length n (log scale)";
  p.log_x = true;
  // A gap at or below 0 (a head that fails at that n: RoPE schedules on retrieval) has no
  // logarithm: such a search is drawn on a linear axis, so that no point silently drops out; so
  // is one whose gaps span less than a decade (a log axis would be labelled 10^{-0.1}, ...).
  bool positive = true;
  double lo = INFINITY, hi = 0;
  for (const HeadSearchPointRecord& pt : r.points) {
    positive = positive && pt.best_gap > 0 && pt.construction_gap > 0;
    lo = std::min({lo, pt.best_gap, pt.construction_gap});
    hi = std::max({hi, pt.best_gap, pt.construction_gap});
  }
  positive = positive && hi >= 10 * lo;
  p.log10_y = positive;
  p.ylabel = positive ? "worst-case gap: top − second logit (log scale)"
                      : "worst-case gap: top − second logit (at or below 0: the head fails)";
  Series best, construction, single, bound;
  best.title = fmt::format("best of {} starts and the designs", r.starts);
  best.style = "linespoints";
  construction.title = index ? "construction θ = π/n: 1 − cos(π/n)" : "construction";
  construction.style = "linespoints";
  single.title = "one frequency θ = 2π/n: 1 − cos(2π/n)";
  bound.title = "bound π²/(2n²)";
  const auto add = [positive](Series& s, double x, double y) {
    if (!std::isfinite(y) || (positive && y <= 0)) return;
    s.x.push_back(x), s.y.push_back(positive ? std::log10(y) : y);
  };
  for (const HeadSearchPointRecord& pt : r.points) {
    const double n = static_cast<double>(pt.n);
    add(best, n, pt.best_gap);
    add(construction, n, pt.construction_gap);
    if (index) {
      add(single, n, pt.single_frequency_gap.value_or(NAN));
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
