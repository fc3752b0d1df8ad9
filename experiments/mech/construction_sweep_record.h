// `posbias discrepancy`'s constructions mode: one construction swept over input length
// (sweep_construction, discrepancy_command.h), as the file holds it, with one field table for the
// writer (the command and the report's mech/constructions.json) and a strict reader. The
// construction and its task are written by name; θ as "pi/n" (index, reflexive) or "0"
// (retrieval) when it follows n, else as the fixed number; the slope is the power law of
// discrepancy_min over n = kSlopeFrom..kSlopeTo, its value null when there is none.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/mech/constructions.h"
#include "posbias/stats/power_law_fit.h"

namespace posbias {

struct SweepPoint {
  int length = 0;
  double theta = 0;            // the angle used at this length
  double discrepancy_min = 0;  // over the task inputs
  double discrepancy_mean = 0;
  double accuracy = 0;
  double bound = 0;  // the construction's bound at (n, θ, ω)
};

// The power law of discrepancy_min against n. Files of earlier builds have no ci and points and
// write `from` as an integer; written again, they keep those bytes.
struct SweepSlope {
  double value = NAN;                     // the exponent; NaN with fewer than two points
  std::optional<std::vector<double>> ci;  // [low, high], NaN with fewer than three points
  double from = 0;                        // the shortest length fitted
  std::int64_t to = 0;                    // the longest length that may be fitted
  std::optional<std::int64_t> points;     // how many lengths were fitted
};

struct SweepResult {
  Construction function = Construction::kIndex;
  Task task = Task::kNumber;  // the task whose inputs it ran on
  bool auto_theta = true;     // θ = π/n (index, reflexive) or 0 (retrieval) at each n
  double theta = NAN;         // the fixed θ when !auto_theta
  double omega = 0;
  std::int64_t count = 0;
  std::uint64_t seed = 0;
  std::vector<SweepPoint> points;  // in the sweep's length order
  static constexpr int kSlopeFrom = 64, kSlopeTo = 4096;
  SweepSlope slope;
};

// The slope as the sweep writes it, from the fit over kSlopeFrom..kSlopeTo.
SweepSlope sweep_slope(const PowerLawFit& fit);
// θ's name when it follows n: "pi/n" for index and reflexive, "0" for retrieval.
std::string auto_theta_name(Construction function);

nlohmann::json to_json(const SweepResult& result);
// Strict: an unknown, missing or mistyped field, or a task or θ name that is not the
// construction's, throws std::invalid_argument naming it ("discrepancy field 'points.2.bound'").
SweepResult sweep_result_from_json(const nlohmann::json& j);

}  // namespace posbias
