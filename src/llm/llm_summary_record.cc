#include "posbias/llm/llm_summary_record.h"

#include <cmath>
#include <stdexcept>

#include "posbias/runfiles/hop_key.h"

namespace posbias {

// An interval as [low, high] (null for a bound there is none of).
template <>
struct FieldCodec<Interval> {
  static constexpr const char* type = "LIST";
  static nlohmann::json write(const Interval& i) {
    return nlohmann::json::array({NanAsNull::write(i.low), NanAsNull::write(i.high)});
  }
  static Interval read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_array() || j.size() != 2)
      throw std::invalid_argument(what + " must be a list [low, high]");
    return {NanAsNull::read(j[0], field_what(what, "0")),
            NanAsNull::read(j[1], field_what(what, "1"))};
  }
};

const std::vector<FieldRow<AccuracyRowRecord>>& accuracy_row_record_fields();
template <>
struct FieldCodec<AccuracyRowRecord> : TableCodec<AccuracyRowRecord, &accuracy_row_record_fields> {
};
template <>
struct FieldCodec<std::vector<AccuracyRowRecord>> : ListCodec<AccuracyRowRecord> {};

namespace {

// A hop count, or kAllHopsKey for every hop (0).
struct HopsCodec {
  static constexpr const char* type = "INT";
  static nlohmann::json write(std::int64_t hops) {
    return hops ? nlohmann::json(hops) : nlohmann::json(kAllHopsKey);
  }
  static std::int64_t read(const nlohmann::json& j, const std::string& what) {
    if (j == kAllHopsKey) return 0;
    const std::int64_t hops = FieldCodec<std::int64_t>::read(j, what);
    if (hops < 1)
      throw std::invalid_argument(what + " must be a hop count >= 1 or \"" + kAllHopsKey + "\"");
    return hops;
  }
};

std::string hops_key(std::int64_t hops) {
  const nlohmann::json j = HopsCodec::write(hops);
  return j.is_string() ? j.get<std::string>() : j.dump();
}

}  // namespace

const std::vector<FieldRow<AccuracyRowRecord>>& accuracy_row_record_fields() {
  using A = AccuracyRowRecord;
  static const std::vector<FieldRow<A>> rows = {
      field("length", &A::length, "tokens (number, letter) or key-value pairs (needle)"),
      optional_field<A, std::int64_t, HopsCodec>("hops", &A::hops, "the hop count, or all"),
      optional_field("depth", &A::depth, "the answer's depth in percent, to the nearest 10"),
      field("n", &A::n, "answered prompts"),
      field("strict", &A::strict, "strict accuracy"),
      field("strict_ci", &A::strict_ci, "its 95% Wilson interval"),
      field("lenient", &A::lenient, "lenient accuracy"),
      field("lenient_ci", &A::lenient_ci, "its 95% Wilson interval"),
      optional_field("chance", &A::chance, "the mean of the prompts' chance levels"),
      optional_field("logprob", &A::logprob, "the mean completion log-probability (null: none)"),
      optional_field("logprob_ci", &A::logprob_ci, "its 95% Student-t interval (null: none)"),
      optional_field("logprob_n", &A::logprob_n, "the prompts with a log-probability"),
  };
  return rows;
}

const std::vector<FieldRow<SuiteSummaryRecord>>& suite_summary_record_fields() {
  using S = SuiteSummaryRecord;
  static const std::vector<FieldRow<S>> rows = {
      required(field("suite", &S::suite, "the suite")),
      field("model", &S::model, "the model asked"),
      field("prompts", &S::prompts, "the suite's prompts"),
      field("answered", &S::answered, "prompts answered"),
      field("failed", &S::failed, "prompts failed after their retries"),
      field("missing", &S::missing, "prompts without a stored row"),
      field("strict", &S::strict, "strict accuracy per length and hop count"),
      field("lenient", &S::lenient, "lenient accuracy per length and hop count"),
      field("by_length", &S::by_length, "per length and hop count (all hops first)"),
      field("by_depth", &S::by_depth, "per length and depth"),
  };
  return rows;
}

namespace {

AccuracyRowRecord row_record(const AccuracyRow& r, bool logprobs) {
  AccuracyRowRecord out;
  out.length = r.length;
  out.n = r.n;
  out.strict = r.strict;
  out.lenient = r.lenient;
  out.strict_ci = r.strict_ci;
  out.lenient_ci = r.lenient_ci;
  out.chance = r.chance;
  if (!logprobs) return out;
  out.logprob = std::isfinite(r.logprob) ? std::optional<double>(r.logprob) : std::nullopt;
  out.logprob_ci =
      std::isfinite(r.logprob_ci.low) ? std::optional<Interval>(r.logprob_ci) : std::nullopt;
  out.logprob_n = r.logprob_n;
  return out;
}

}  // namespace

SuiteSummaryRecord suite_summary_record(const SuiteSummary& s) {
  SuiteSummaryRecord out{s.suite,   s.model, s.prompts, s.answered, s.failed,
                         s.missing, {},      {},        {},         {}};
  const bool logprobs = s.has_logprobs();  // the fields only when there is something in them
  for (const AccuracyRow& r : s.by_length) {
    out.strict[std::to_string(r.length)][hops_key(r.hops)] = r.strict;
    out.lenient[std::to_string(r.length)][hops_key(r.hops)] = r.lenient;
    out.by_length.push_back(row_record(r, logprobs));
    out.by_length.back().hops = r.hops;
  }
  for (const AccuracyRow& r : s.by_depth) {
    out.by_depth.push_back(row_record(r, logprobs));
    out.by_depth.back().depth = r.depth;
  }
  return out;
}

nlohmann::json to_json(const SuiteSummaryRecord& r) {
  return fields_to_json(suite_summary_record_fields(), r);
}

SuiteSummaryRecord suite_summary_record_from_json(const nlohmann::json& j) {
  return fields_from_json(suite_summary_record_fields(), j, SuiteSummaryRecord{}, "suite field");
}

}  // namespace posbias
