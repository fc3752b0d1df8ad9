// `discrepancy --search optimized`'s result (head_search_sweep.h) as the file holds it: one
// field table for the writer and a strict reader. Index searches give each point the best
// one-frequency gap and the bound π²/(2n²); retrieval searches give the design's symbols and
// spacing ω; RoPE-schedule searches their base. NaN gaps are null.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/mech/trained_discrepancy_record.h"

namespace posbias {

struct HeadSearchSweepResult;
// Declared here so that the record stays torch-free (mech/constructions.h, mech/head_search.h).
enum class Construction;
enum class SearchFrequencies;

struct HeadSearchPointRecord {
  std::int64_t n = 0;  // input length
  double best_gap = NAN, construction_gap = NAN;
  std::optional<double> single_frequency_gap, bound;  // index searches
  std::vector<double> start_gaps, theta;
};

struct HeadSearchRecord {
  Construction function{};  // index (the first value) until set
  std::string search = "optimized";
  SearchFrequencies frequencies{};
  int head_dim = 0, starts = 0, steps = 0;
  std::uint64_t seed = 0;
  std::optional<double> rope_theta;  // RoPE-schedule searches
  std::optional<int> symbols;        // retrieval searches
  std::optional<double> omega;       // retrieval searches
  std::vector<HeadSearchPointRecord> points;
  ExponentRecord exponent, construction_exponent;
  double seconds = 0;
};

HeadSearchRecord head_search_record(const HeadSearchSweepResult& result);
nlohmann::json to_json(const HeadSearchRecord& record);
// Strict: an unknown, missing or mistyped field throws std::invalid_argument naming it
// ("head search field 'points.2.best_gap'").
HeadSearchRecord head_search_record_from_json(const nlohmann::json& j);
// Whether `j` holds every field the record's table requires: a file told to be a head search's
// (core/required_fields.h).
bool holds_head_search_record(const nlohmann::json& j);

}  // namespace posbias
