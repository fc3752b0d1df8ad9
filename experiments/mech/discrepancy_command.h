// `posbias discrepancy`: the index and retrieval constructions (mech/constructions.h) swept
// over input length beside their bounds, (with --search optimized) the best heads a search finds
// (head_search_sweep.h), or (with --run) a trained model's key heads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "experiments/mech/head_search_sweep.h"
#include "posbias/core/plot.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

struct ConstructionSweep {
  Construction function = Construction::kIndex;
  double theta = NAN;  // NaN = auto: π/n for index and reflexive (n positions), 0 for retrieval
  double omega = 0.7853981633974483;  // retrieval symbol spacing, 2π/8
  std::vector<int> lengths{9, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::int64_t count = 64;  // task examples per length (1 hop)
  std::uint64_t seed = 0;
  double memory_budget_gb = 0;  // --memory-budget (0: what the machine has available)
};

struct SweepPoint {
  int length = 0;
  double theta = 0;            // the angle used at this length
  double discrepancy_min = 0;  // over the task inputs
  double discrepancy_mean = 0;
  double accuracy = 0;
  double bound = 0;  // the construction's bound at (n, θ, ω)
};

struct SweepResult {
  std::string function, task;  // index | retrieval | reflexive; the task whose inputs it ran on
  bool auto_theta = true;      // θ = π/n (index, reflexive) or 0 (retrieval) at each n
  double theta = NAN;          // the fixed θ when !auto_theta
  double omega = 0;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::vector<SweepPoint> points;  // in the sweep's length order
  // Power law of discrepancy_min over lengths kSlopeFrom..kSlopeTo (NaN exponent with fewer than
  // two such points, NaN interval with fewer than three).
  static constexpr int kSlopeFrom = 64, kSlopeTo = 4096;
  PowerLawFit slope;
};

SweepResult sweep_construction(const ConstructionSweep& sweep);

// {"function", "task", "theta" (number, "pi/n" or "0"), "omega", "count", "seed", "points":
//  [{"length", "theta", "discrepancy_min", "discrepancy_mean", "accuracy", "bound"}],
//  "slope": {"value", "ci": [lo, hi], "from", "to", "points"} (null when NaN)}.
nlohmann::json to_json(const SweepResult& result);

// Log-log discrepancy against n: measured points and the bound, one panel per result.
Figure construction_figure(const std::vector<SweepResult>& results);

// One command, three modes, each with its own options: the constructions swept over n, the
// head search (--search optimized), or a trained run's key heads (--run).
using DiscrepancyMode = std::variant<ConstructionSweep, HeadSearchSweep, TrainedDiscrepancyOptions>;

struct DiscrepancyOptions {
  DiscrepancyMode mode;
  std::string json, plot;  // result JSON (empty: stdout) and figure stem (empty: none)
};
nlohmann::json run_discrepancy(const DiscrepancyOptions& options);

}  // namespace posbias
