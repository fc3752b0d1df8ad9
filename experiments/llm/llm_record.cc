#include "experiments/llm/llm_record.h"

#include "posbias/llm/api_codec.h"

namespace posbias {

template <>
struct FieldCodec<std::vector<SuiteSummaryRecord>> : ListCodec<SuiteSummaryRecord> {};

const std::vector<FieldRow<LlmRecord>>& llm_record_fields() {
  using R = LlmRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("model", &R::model, "the model asked")),
      field("api", &R::api, "the endpoint's API: chat or completions"),
      field("requests", &R::requests, "prompts sent this run"),
      field("failed", &R::failed, "prompts failed after their retries, over every suite"),
      required(field("suites", &R::suites, "each suite's summary")),
  };
  return rows;
}

LlmRecord llm_record(const LlmResult& r) {
  LlmRecord out{r.model, r.api, r.requests, r.failed, {}};
  for (const SuiteSummary& s : r.suites) out.suites.push_back(suite_summary_record(s));
  return out;
}

nlohmann::json to_json(const LlmRecord& r) { return fields_to_json(llm_record_fields(), r); }

LlmRecord llm_record_from_json(const nlohmann::json& j) {
  return fields_from_json(llm_record_fields(), j, LlmRecord{}, "llm field");
}

}  // namespace posbias
