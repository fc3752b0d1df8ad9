#include "experiments/llm/llm_record.h"

namespace posbias {

template <>
struct FieldCodec<std::vector<SuiteSummaryRecord>> : ListCodec<SuiteSummaryRecord> {};

const std::vector<FieldRow<LlmRecord>>& llm_record_fields() {
  using R = LlmRecord;
  static const std::vector<FieldRow<R>> rows = [] {
    std::vector<FieldRow<R>> r = inherited_fields<R>(llm_target_fields());
    r.push_back(field("requests", &R::requests, "prompts sent this run"));
    r.push_back(
        field("failed", &R::failed, "prompts failed after their retries, over every suite"));
    r.push_back(required(field("suites", &R::suites, "each suite's summary")));
    return r;
  }();
  return rows;
}

LlmRecord llm_record(const LlmResult& r) {
  LlmRecord out{{r.model, r.api}, r.requests, r.failed, {}};
  for (const SuiteSummary& s : r.suites) out.suites.push_back(suite_summary_record(s));
  return out;
}

nlohmann::json to_json(const LlmRecord& r) { return fields_to_json(llm_record_fields(), r); }

LlmRecord llm_record_from_json(const nlohmann::json& j) {
  return fields_from_json(llm_record_fields(), j, LlmRecord{}, "llm field");
}

}  // namespace posbias
