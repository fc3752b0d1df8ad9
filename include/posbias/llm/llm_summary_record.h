// A suite's summary (SuiteSummary, llm_summary.h) as `posbias llm`'s result file holds it: one
// field table per part, for the writer (to_json) and a strict reader. The "strict" and
// "lenient" maps give each accuracy per length ("16") and hop count ("1", ..., "all"), the shape
// of `posbias eval`; the rows give it with its 95% Wilson interval as [low, high]. A by_length
// row has "hops" ("all" or a count), a by_depth row "depth" (percent, to the nearest 10). Files
// of earlier builds lack "chance"; the log-probability fields are there only when some prompt
// of the suite has a log-probability (a --logprobs run).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/llm/llm_summary.h"
#include "posbias/stats/interval.h"

namespace posbias {

struct AccuracyRowRecord {
  std::int64_t length = 0;
  std::optional<std::int64_t> hops;   // by_length rows: the hop count, 0 = all hops
  std::optional<std::int64_t> depth;  // by_depth rows
  std::int64_t n = 0;
  double strict = 0, lenient = 0;
  Interval strict_ci, lenient_ci;
  std::optional<double> chance;
  std::optional<std::optional<double>> logprob;       // null: none of the prompts has one
  std::optional<std::optional<Interval>> logprob_ci;  // null: fewer than 2 have one
  std::optional<std::int64_t> logprob_n;
};

struct SuiteSummaryRecord {
  std::string suite, model;
  std::int64_t prompts = 0, answered = 0, failed = 0, missing = 0;
  std::map<std::string, std::map<std::string, double>> strict, lenient;  // length → hops
  std::vector<AccuracyRowRecord> by_length, by_depth;
};
const std::vector<FieldRow<SuiteSummaryRecord>>& suite_summary_record_fields();
template <>
struct FieldCodec<SuiteSummaryRecord>
    : TableCodec<SuiteSummaryRecord, &suite_summary_record_fields> {};

SuiteSummaryRecord suite_summary_record(const SuiteSummary& summary);
nlohmann::json to_json(const SuiteSummaryRecord& record);
// Strict: an unknown or mistyped field throws std::invalid_argument naming it ("suite field
// 'by_length.3.strict_ci'").
SuiteSummaryRecord suite_summary_record_from_json(const nlohmann::json& j);

}  // namespace posbias
