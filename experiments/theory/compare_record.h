// `posbias theory compare`'s result (CompareResult, compare_command.h) as the file holds it: one
// field table for the writer (run_compare) and a strict reader (scripts/birth-tables.py reads
// the files too). Values that are not finite are null.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// A run's dead zone, p_min / p_1 before the query, measured and predicted, beside 1/(H−1)!.
struct CompareDeadZoneRecord {
  double measured = 0, predicted = 0, one_over_h_minus_1_factorial = 0;
};

struct CompareRunRecord {
  std::string label, file;
  std::int64_t layers = 0, seeds = 0;
  double alpha_mean = 0;      // mean over layers of the run's α̂
  double own_error = 0;       // against its own prediction
  std::string assigned;       // the run whose prediction is closest
  double margin = 0;          // the runner-up's error minus the closest's
  double bootstrap_self = 0;  // share of resamples assigned to themselves (null: one seed)
  CompareDeadZoneRecord dead_zone;
};

struct CompareRecord {
  std::vector<CompareRunRecord> runs;
  std::vector<std::vector<double>> errors;  // [measured run][predicted run]
  std::int64_t correct = 0, total = 0;
  std::string statistic;
};
const std::vector<FieldRow<CompareRecord>>& compare_record_fields();

nlohmann::json to_json(const CompareRecord& record);
// Strict: an unknown or mistyped field, or missing runs or errors, throws std::invalid_argument
// naming it ("compare field 'runs.2.margin'").
CompareRecord compare_record_from_json(const nlohmann::json& j);

}  // namespace posbias
