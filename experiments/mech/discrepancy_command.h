// `posbias discrepancy`: the index and retrieval constructions (mech/constructions.h) swept
// over input length beside their bounds, or (with --run) a trained model's key heads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"

namespace posbias {

struct ConstructionSweep {
  std::string function = "index";  // index | retrieval
  double theta = NAN;  // NaN = auto: π/n for index (addresses n positions), 0 for retrieval
  double omega = 0.7853981633974483;  // retrieval symbol spacing, 2π/8
  std::vector<int> lengths{9, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::int64_t count = 64;  // task examples per length (1 hop)
  std::uint64_t seed = 0;
};

// JSON: {"function", "task", "theta" (number or "pi/n"), "omega", "count", "points": [{"length",
//   "theta", "discrepancy_min", "discrepancy_mean", "accuracy", "bound"}], "slope": {"from",
//   "to", "value"} (log-log least squares of discrepancy_min over lengths 64..4096)}.
nlohmann::json sweep_construction(const ConstructionSweep& sweep);

// Log-log discrepancy against n: measured points and the bound, one panel per result.
Figure construction_figure(const std::vector<nlohmann::json>& results);

struct DiscrepancyOptions {
  ConstructionSweep sweep;
  std::string run, checkpoint, heads = "auto";  // run set: the trained-model measurement
  std::string lengths;                          // empty = the mode's default
  std::int64_t count = 0;                       // 0 = the mode's default
  std::uint64_t seed = 0;
  std::string json, plot;
};
nlohmann::json run_discrepancy(const DiscrepancyOptions& options);

}  // namespace posbias
