// `posbias theory`'s summary (TheoryResult, theory_command.h) as the JSON row output and
// --summary hold it: one field table per part. The continuum is null where it is not derived;
// --summary adds the machine. Values that are not finite are null. --exact's JSON
// (ExactTheoryRecord) has its own config, the rationals as text ("1/3"), and the row as fractions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/position_base.h"

namespace posbias {

// The attention operator: its name and parameters.
struct TheoryOperatorRecord {
  std::string name;
  std::int64_t window = 0;
  std::vector<double> alibi_slopes;
  double sink = 0;
  double null_sink_weight = 0;  // e^b of a null sink; 0: none (and not written)
};

struct TheoryConfigRecord {
  std::int64_t length = 0, query = 0, layers = 0;
  std::vector<double> alpha;  // one α, or one per layer
  TheoryOperatorRecord op;    // "operator" in the file
};

struct DeadZoneRecord {
  std::int64_t position = 0;
  double x = NAN, log10_influence = NAN;
};

struct PrimacyRecord {
  double epsilon = NAN, mass = NAN;
};

// The discrete row's summary (theory/profile_summary.h).
struct DiscreteSummaryRecord {
  double log10_first = NAN, log10_last = NAN, log10_middle = NAN;
  DeadZoneRecord dead_zone;
  PrimacyRecord primacy;
  double recency_mass = NAN, total_mass = NAN, log10_middle_to_ends = NAN;
};

struct DensityDeadZoneRecord {
  double x = NAN, log10_density = NAN;
  std::string note;
};

struct DensityGridRecord {
  std::vector<double> x, log10_density;
};

// The continuum limit's summary (ContinuumSummary).
struct ContinuumRecord {
  double recency_mass = NAN;
  PrimacyRecord primacy;
  double middle_to_ends = NAN;
  DensityDeadZoneRecord dead_zone;
  DensityGridRecord grid;
  double bulk_max_relative_error = NAN;
};

struct TheoryRecord {
  std::int64_t position_base = kPositionBase;
  TheoryConfigRecord config;
  std::string version;
  DiscreteSummaryRecord discrete;
  std::optional<ContinuumRecord> continuum;  // null: not derived
  std::optional<MachineRecord> machine;      // --summary's
};
const std::vector<FieldRow<TheoryRecord>>& theory_record_fields();
const std::vector<FieldRow<TheoryConfigRecord>>& theory_config_record_fields();

nlohmann::json to_json(const TheoryRecord& record);
nlohmann::json to_json(const TheoryConfigRecord& record);
// Strict: an unknown or mistyped field throws std::invalid_argument naming it ("theory field
// 'continuum.grid.x'"). A 1-based file's positions are moved to 0-based (position_base.h).
TheoryRecord theory_record_from_json(const nlohmann::json& j);

// --exact's spec: α and the sink as exact rationals' text, and the null sink (when one) by its
// logit and the exact weight e^b it took.
struct ExactConfigRecord {
  std::int64_t length = 0, query = 0, layers = 0, window = 0;
  std::string sink;
  bool exact = true;
  std::vector<std::string> alpha;
  std::optional<double> null_sink;
  std::optional<std::string> null_sink_weight;
};

// `theory --exact --format json`: the row as exact fractions, with log10 of each (null for 0).
struct ExactTheoryRecord {
  std::int64_t position_base = kPositionBase;
  ExactConfigRecord config;
  std::string version;
  std::vector<std::int64_t> position;
  std::vector<std::string> fraction;
  std::vector<double> log10_influence;
};
const std::vector<FieldRow<ExactTheoryRecord>>& exact_theory_record_fields();

nlohmann::json to_json(const ExactTheoryRecord& record);
// Strict: an unknown or mistyped field throws std::invalid_argument naming it ("theory field
// 'config.alpha.0'"). A 1-based file's positions are moved to 0-based (position_base.h).
ExactTheoryRecord exact_theory_record_from_json(const nlohmann::json& j);

}  // namespace posbias
