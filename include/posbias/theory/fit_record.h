// A fit of the theory to a measured profile (theory/fit.h) as a result file holds it: one field
// table for `posbias fit --json` and the fit fields at the top of `birth --json` (birth_record.h).
// Values that are not finite are null.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/theory/fit.h"
#include "posbias/theory/influence.h"

namespace posbias {

// The last position (the recency anchor), compared apart from the fit.
struct LastPositionRecord {
  double log10_measured = NAN, log10_predicted = NAN;
};

// The theory fitted: its depth, attention operator, bootstrap resamples and path sum.
struct FitTheoryRecord {
  std::int64_t layers = 0;
  std::string op;  // "operator" in the file
  std::int64_t bootstrap = 0;
  PathSum paths = PathSum::kLinear;
};

struct FitRecord {
  double alpha = NAN;
  std::vector<double> alpha_ci;  // [low, high]: 95% bootstrap over seeds, null without
  double log10_gain = NAN, spearman = NAN, log_r2 = NAN, w1 = NAN;
  double alpha_spearman = NAN, spearman_best = NAN;
  std::int64_t seeds = 0;
  LastPositionRecord last_position;
  FitTheoryRecord theory;
  std::vector<double> theory_log10;  // log10 c·r_j(α), j = 1..L
  std::string notes;
};
const std::vector<FieldRow<FitRecord>>& fit_record_fields();

FitRecord fit_record(const FitResult& result, const FitSpec& spec);
nlohmann::json to_json(const FitRecord& record);

}  // namespace posbias
