// `discrepancy --search optimized`'s result (head_search_sweep.h) as the file holds it: one
// field table for the writer and a strict reader. The search's options are the record's own
// (HeadSearchOptions, its base): retrieval searches write the design's symbols and spacing ω,
// RoPE-schedule searches their base. Index searches give each point the best one-frequency gap
// and the bound π²/(2n²). NaN gaps are null.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/mech/head_search_options.h"
#include "posbias/mech/trained_discrepancy_record.h"

namespace posbias {

struct HeadSearchSweepResult;

struct HeadSearchPointRecord {
  std::int64_t n = 0;  // input length
  double best_gap = NAN, construction_gap = NAN;
  std::optional<double> single_frequency_gap, bound;  // index searches
  std::vector<double> start_gaps, theta;
};

// The options searched with (rope_theta read by RoPE-schedule searches, symbols and omega by
// retrieval searches) and what was found.
struct HeadSearchRecord : HeadSearchOptions {
  std::string search = "optimized";
  std::vector<HeadSearchPointRecord> points;
  ExponentRecord exponent, construction_exponent;
  double seconds = 0;
};

// The record's table: the options' rows (those a search does not read left out of its file),
// then what was found.
const std::vector<FieldRow<HeadSearchRecord>>& head_search_record_fields();
HeadSearchRecord head_search_record(const HeadSearchSweepResult& result);
nlohmann::json to_json(const HeadSearchRecord& record);
// Strict: an unknown, missing or mistyped field throws std::invalid_argument naming it
// ("head search field 'points.2.best_gap'").
HeadSearchRecord head_search_record_from_json(const nlohmann::json& j);
// Whether `j` holds every field the record's table requires: a file told to be a head search's
// (core/required_fields.h).
bool holds_head_search_record(const nlohmann::json& j);

}  // namespace posbias
