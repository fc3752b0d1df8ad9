// One row of the mitigations section's table: a remedy against its baseline, each measurement's
// paired effect (absent where the measurement does not apply to the remedy), and a sentence
// saying what the row measured. Its field table (remedy_row_fields) writes a row of the section's
// summary.json (mitigations_summary.h); each measurement's key there, its column header in the
// table and its member are one line of remedy_measurements().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "experiments/mitigations/paired_effect.h"
#include "posbias/core/field_table.h"

namespace posbias {

struct RemedyRow {
  std::string name;      // "null sink b = 2, GPT-2 style"
  std::string when;      // "at birth" | "trained" | "at inference"
  std::string option;    // "birth --null-sink 2": the command option that applies it
  std::string measured;  // one sentence: on what, against what, which quantity
  // At birth: log10 change of the middle fifth's share of the influence (larger: less bias).
  std::optional<PairedEffect> birth_middle;
  // After training: log10 change of the example's first 8 tokens' share of the answer's
  // influence at the last checkpoint (smaller: less primacy).
  std::optional<PairedEffect> trained_primacy;
  // kv exact match at the middle depth (50%) at the training length L and at 2L, and the
  // depth-averaged exact match at L (reported).
  std::optional<PairedEffect> middle_at_length, middle_at_twice, mean_at_length;
  // Training seconds per step (reported: the machine may be shared).
  std::optional<PairedEffect> seconds_per_step;
};

// A measurement of the table, in the table's order: its column header, its member, and its key in
// summary.json (written only where the row has it).
struct RemedyMeasurement {
  const char* header;
  std::optional<PairedEffect> RemedyRow::*effect;
  const char* key;
};
const std::vector<RemedyMeasurement>& remedy_measurements();

const std::vector<FieldRow<RemedyRow>>& remedy_row_fields();

}  // namespace posbias
