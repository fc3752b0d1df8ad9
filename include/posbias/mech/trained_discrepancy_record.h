// `discrepancy --run`'s result, as the file holds it: one field table for the writer
// (discrepancy_command.cc and the report, from trained_discrepancy_record) and the reader
// (`seeds`, hop_seed_files.cc). The file lists each key head twice: under "key_heads" with its
// scores, under "discrepancy" with its gaps and fits; accuracy is keyed by length ("64").
// Torch-free: the result types are plain structs. ExponentRecord is the one shape every mech
// result gives a fitted length exponent.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

// Which head, and the role it was chosen for (both lists of the file start with these).
struct KeyHeadName {
  int layer = 0, head = 0;
  KeyHeadKind kind = KeyHeadKind::kChosen;
  HeadLabel label = HeadLabel::kMixed;  // head_label of its scores
};

struct KeyHeadScores : KeyHeadName {
  double positional = NAN, symbolic = NAN;
};

// A power law's exponent as results write it: {"value", "ci": [lo, hi], "from", "points"}.
struct ExponentRecord {
  double value = NAN;
  std::vector<double> ci;  // [low, high], null where the fit has none
  double from = 0;         // the shortest length fitted
  std::int64_t points = 0;
};

struct KeyHeadKindNames {
  static std::string name(KeyHeadKind k) { return std::string(key_head_kind_name(k)); }
  static KeyHeadKind parse(const std::string& s) { return parse_key_head_kind(s); }
};
template <>
struct FieldCodec<KeyHeadKind> : EnumCodec<KeyHeadKind, KeyHeadKindNames> {};

const std::vector<FieldRow<ExponentRecord>>& exponent_record_fields();
template <>
struct FieldCodec<ExponentRecord> : TableCodec<ExponentRecord, &exponent_record_fields> {};
ExponentRecord exponent_record(const PowerLawFit& fit, double from);
nlohmann::json to_json(const ExponentRecord& exponent);

struct KeyHeadDiscrepancy : KeyHeadName {
  std::vector<GapPoint> points, on_chain_points;
  std::vector<double> top_key_on_chain;
  std::optional<std::vector<GapPoint>> correct_points;  // files of earlier builds: none
  std::optional<ExponentRecord> exponent, on_chain_exponent;
};

struct TrainedDiscrepancyRecord {
  std::string run;
  Task task = Task::kNumber;
  std::optional<Variant> variant;  // files of earlier builds: none (standard)
  std::int64_t step = 0;
  std::optional<std::int64_t> train_length;  // files of earlier builds: none
  std::vector<KeyHeadScores> key_heads;
  std::vector<int> lengths;
  std::int64_t count = 0;
  std::map<std::string, double> accuracy;  // length → accuracy
  std::vector<KeyHeadDiscrepancy> discrepancy;
};
const std::vector<FieldRow<TrainedDiscrepancyRecord>>& trained_discrepancy_record_fields();

TrainedDiscrepancyRecord trained_discrepancy_record(const TrainedDiscrepancyResult& result);
nlohmann::json to_json(const TrainedDiscrepancyRecord& record);
// Strict: an unknown or mistyped field, or a missing task, accuracy or discrepancy, throws
// std::invalid_argument naming it ("discrepancy field 'discrepancy.0.points.1.median'").
TrainedDiscrepancyRecord trained_discrepancy_record_from_json(const nlohmann::json& j);

}  // namespace posbias
