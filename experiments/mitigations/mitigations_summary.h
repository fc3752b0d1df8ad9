// The mitigations section's summary.json (mitigations_report.h): the preset, how an effect is
// computed, and every remedy row with its paired effects (remedy_row.h), written from one field
// table.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "experiments/mitigations/remedy_row.h"
#include "posbias/core/field_table.h"

namespace posbias {

struct MitigationsSummary {
  std::string preset;    // "quick" | "full"
  std::string describe;  // the preset in one line (MitigationsPreset::describe)
  int seeds = 0;         // kv seeds, paired by seed
  std::string scale;     // how a row's effects are computed
  std::vector<RemedyRow> rows;
};

const std::vector<FieldRow<MitigationsSummary>>& mitigations_summary_fields();
nlohmann::json to_json(const MitigationsSummary& summary);

}  // namespace posbias
