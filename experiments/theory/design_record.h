// `posbias theory design`'s result (DesignResult, design_command.h) as the file holds it: one
// field table for the writer (run_design) and a strict reader. One entry per operator, ranked by
// the middle fifth's share, flat (the CSV's columns are the same fields). Values that are not
// finite (a log ratio of a zero share) are null.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/csv_table.h"
#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/position_base.h"
#include "posbias/theory/influence.h"

namespace posbias {

struct DesignGridRecord {
  std::int64_t length = 0, query = 0, layers = 0;  // query: its position (0-based)
  PathSum paths = PathSum::kLinear;
  double baseline_alpha = 0;
  std::vector<std::int64_t> windows;
  std::vector<std::string> alibis, null_sinks, alphas;  // as named (none, heads:N, ramp a:b)
  std::vector<double> sinks;
  std::int64_t operators = 0;
};

struct DesignOperatorRecord {
  std::int64_t rank = 0;  // 1 = the largest middle share
  std::int64_t window = 0;
  std::string alibi;
  double sink = 0;
  std::string null_sink;  // b, or none
  std::string alpha;      // α, or ramp a1:aH
  bool baseline = false;
  double primacy = 0, middle = 0, recency = 0, query = 0;  // shares
  double middle_change = 0;                                // log10(middle share / the baseline's)
  std::string u_test;                                      // U | no U
  double middle_vs_primacy = 0, middle_vs_recency = 0;     // log10 per-position share ratios
  bool birth_buildable = false;
  std::string birth_options, birth_note;
};

struct DesignRecord {
  std::int64_t position_base = kPositionBase;
  DesignGridRecord grid;
  std::string statistic, rule;
  std::map<std::string, std::vector<std::int64_t>> regions;  // region → [first, last]
  std::string birth_builds;                                  // which knobs birth can build
  std::int64_t baseline_rank = 0;                            // the baseline's rank
  std::vector<std::int64_t> confirm;  // ranks of the best two buildable operators
  std::vector<DesignOperatorRecord> operators;
  double seconds = 0;
  MachineRecord machine;
  std::string version;
};
const std::vector<FieldRow<DesignRecord>>& design_record_fields();

// The CSV's columns: an operator's fields in table order (csv_field_columns; numbers as JSON
// writes them).
std::vector<CsvColumn<DesignOperatorRecord>> design_operator_columns();

nlohmann::json to_json(const DesignRecord& record);
// Strict: an unknown or mistyped field, or missing operators, throws std::invalid_argument
// naming it ("design field 'operators.3.middle'").
DesignRecord design_record_from_json(const nlohmann::json& j);

}  // namespace posbias
