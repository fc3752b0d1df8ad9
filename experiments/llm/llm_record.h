// `posbias llm`'s result (LlmResult, llm_command.h) as the file holds it: one field table for the
// writer (run_llm) and a strict reader; each suite is llm_summary_record.h's.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/llm/llm_command.h"
#include "experiments/llm/llm_options.h"
#include "posbias/core/field_table.h"
#include "posbias/llm/llm_summary_record.h"

namespace posbias {

// The model and its API: the rows of the options' table (llm_options.h).
struct LlmRecord : LlmTarget {
  std::int64_t requests = 0, failed = 0;
  std::vector<SuiteSummaryRecord> suites;
};
const std::vector<FieldRow<LlmRecord>>& llm_record_fields();

LlmRecord llm_record(const LlmResult& result);
nlohmann::json to_json(const LlmRecord& record);
// Strict: an unknown or mistyped field throws std::invalid_argument naming it ("llm field
// 'suites.0.by_depth.2.n'").
LlmRecord llm_record_from_json(const nlohmann::json& j);

}  // namespace posbias
