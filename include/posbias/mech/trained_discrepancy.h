// The empirical discrepancy of a trained hop model: for its key heads (the most positional
// and the most symbolic head that `heads` finds, or heads the user names), the query's top
// attention logit minus the second against input length, next to the model's accuracy at
// each length. This ties the constructions' theory to the length-generalization curve.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"

namespace posbias {

struct TrainedDiscrepancyOptions {
  std::string run, checkpoint;  // checkpoint empty = the run's latest
  std::string heads = "auto";   // auto | "L.h,L.h" (0-based layer and head)
  std::vector<int> lengths{17, 32, 64, 128, 256, 512, 850};
  std::int64_t count = 100;  // examples per length
  std::uint64_t seed = 1;
  std::int64_t samples = 100;  // head-score samples for auto
};

// JSON: {"run", "task", "step", "key_heads": [{"layer", "head", "kind", "positional",
//   "symbolic"}], "lengths", "accuracy": {"17": acc, ...}, "discrepancy": [{"layer", "head",
//   "kind", "points": [{"length", "median", "mean", "min", "p10", "p90"}]}]}.
nlohmann::json measure_trained_discrepancy(const TrainedDiscrepancyOptions& options);

// Log-log discrepancy against length per key head, accuracy on the right-hand axis.
Figure trained_discrepancy_figure(const nlohmann::json& result);

}  // namespace posbias
