// `posbias discrepancy --search optimized`: the head search (mech/head_search.h) swept over
// input length, the best gap found against the constructions and the one-frequency bound, and
// the fitted length exponent with its 95% interval.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "experiments/mech/head_search_record.h"
#include "posbias/core/plot.h"
#include "posbias/mech/head_search.h"
#include "posbias/stats/power_law_fit.h"

namespace posbias {

struct HeadSearchSweep {
  HeadSearchOptions search;
  std::vector<int> lengths{16, 32, 64, 128, 256, 512, 850};
  double fit_from = 64;         // the exponent is fitted on lengths >= fit_from
  double memory_budget_gb = 0;  // --memory-budget (0: the machine's available memory)
};

struct HeadSearchSweepResult {
  HeadSearchSweep sweep;
  std::vector<HeadSearchPoint> points;  // in the sweep's length order
  PowerLawFit exponent;                 // of best_gap against n
  PowerLawFit construction_exponent;    // of construction_gap against n
  double seconds = 0;
};

// Plans the memory of every length first (one line and exit 2 past the budget), then searches
// the lengths in order with progress and ETA, each continuing from the previous one's best head.
HeadSearchSweepResult sweep_head_search(const HeadSearchSweep& sweep);

// The index construction's bound on the worst-case gap at length n: π²/(2n²).
double index_bound(double n);

// The result file is head_search_record.h's.

// Log-log gap against n, from the result as its file holds it (head_search_record.h; discrepancy
// --redraw draws it from the file): the best head found, the construction, the one-frequency
// design and (index) the construction's bound π²/(2n²). A search with a gap at or below 0, or
// whose gaps span less than a decade, is drawn on a linear gap axis.
Figure head_search_figure(const HeadSearchRecord& result);

}  // namespace posbias
