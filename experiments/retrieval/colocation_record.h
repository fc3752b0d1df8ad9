// `birth --colocate`'s result (ColocationResult, colocation.h) as the file holds it: one field
// table for the writer (run_colocation) and a strict reader. Files of earlier builds lack the
// inputs (they are kv) and whether the ρ interval was cut: optional fields.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/tasks/retrieval_inputs.h"

namespace posbias {

// One training seed's pair of files and what was read from them.
struct ColocationSeedRecord {
  std::string influence_file, accuracy_file;
  std::vector<double> accuracy, needle_share;  // per depth bin
  double spearman = 0;                         // NaN (null): either row is constant
};

// The mean ρ over seeds with its 95% Student-t interval (null ends: fewer than 2 seeds).
struct SpearmanRecord {
  double mean = 0, low = 0, high = 0;
  std::int64_t n = 0;
  std::optional<bool> cut;  // the interval ran past ±1 and was cut there
};

struct ColocationRecord {
  std::optional<AnswerInputs> inputs;  // files of earlier builds: none (kv)
  std::int64_t length = 0;
  std::vector<int> depths;
  std::string rule;
  std::vector<ColocationSeedRecord> seeds;
  SpearmanRecord spearman;
  std::vector<double> mean_accuracy, mean_needle_share;  // per depth bin, over seeds
  std::vector<int> accuracy_minimum;                     // depths tied at the lowest accuracy
  std::int64_t influence_minimum = 0, seeds_same_bin = 0;
  std::string verdict;
};
const std::vector<FieldRow<ColocationRecord>>& colocation_record_fields();

nlohmann::json to_json(const ColocationRecord& record);
// Strict: an unknown or mistyped field, or missing depths, seeds or verdict, throws
// std::invalid_argument naming it ("colocation field 'seeds.1.spearman'").
ColocationRecord colocation_record_from_json(const nlohmann::json& j);

}  // namespace posbias
