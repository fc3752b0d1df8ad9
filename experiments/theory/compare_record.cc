#include "experiments/theory/compare_record.h"

#include <nlohmann/json.hpp>

namespace posbias {

const std::vector<FieldRow<CompareDeadZoneRecord>>& compare_dead_zone_record_fields();
const std::vector<FieldRow<CompareRunRecord>>& compare_run_record_fields();
template <>
struct FieldCodec<CompareDeadZoneRecord>
    : TableCodec<CompareDeadZoneRecord, &compare_dead_zone_record_fields> {};
template <>
struct FieldCodec<CompareRunRecord> : TableCodec<CompareRunRecord, &compare_run_record_fields> {};
template <>
struct FieldCodec<std::vector<CompareRunRecord>> : ListCodec<CompareRunRecord> {};

const std::vector<FieldRow<CompareDeadZoneRecord>>& compare_dead_zone_record_fields() {
  using D = CompareDeadZoneRecord;
  static const std::vector<FieldRow<D>> rows = {
      field<D, double, NanAsNull>("measured", &D::measured, "p_min / p_1 of the measured profile"),
      field<D, double, NanAsNull>("predicted", &D::predicted, "the same of its prediction"),
      field<D, double, NanAsNull>("one_over_h_minus_1_factorial", &D::one_over_h_minus_1_factorial,
                                  "1/(H−1)!"),
  };
  return rows;
}

const std::vector<FieldRow<CompareRunRecord>>& compare_run_record_fields() {
  using R = CompareRunRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("label", &R::label, "the run's name (its file's stem)")),
      field("file", &R::file, "the birth --json result", "PATH"),
      field("layers", &R::layers, "its layers H"),
      field("seeds", &R::seeds, "its per-seed profiles"),
      field<R, double, NanAsNull>("alpha_mean", &R::alpha_mean, "the mean over layers of α̂"),
      field<R, double, NanAsNull>("own_error", &R::own_error,
                                  "the error against its own prediction"),
      field("assigned", &R::assigned, "the run whose prediction is closest"),
      field<R, double, NanAsNull>("margin", &R::margin,
                                  "the runner-up's error minus the closest's"),
      field<R, double, NanAsNull>("bootstrap_self", &R::bootstrap_self,
                                  "share of resamples assigned to itself (null: one seed)"),
      field("dead_zone", &R::dead_zone, "p_min / p_1, measured and predicted, and 1/(H−1)!"),
  };
  return rows;
}

const std::vector<FieldRow<CompareRecord>>& compare_record_fields() {
  using C = CompareRecord;
  static const std::vector<FieldRow<C>> rows = {
      required(field("runs", &C::runs, "one entry per birth result")),
      required(field<C, std::vector<std::vector<double>>, NanAsNullMatrix>(
          "errors", &C::errors, "[measured run][predicted run]: the statistic")),
      field("correct", &C::correct, "runs closest to their own prediction"),
      field("total", &C::total, "runs"),
      field("statistic", &C::statistic, "what the errors are"),
  };
  return rows;
}

nlohmann::json to_json(const CompareRecord& r) {
  return fields_to_json(compare_record_fields(), r);
}

CompareRecord compare_record_from_json(const nlohmann::json& j) {
  return fields_from_json(compare_record_fields(), j, CompareRecord{}, "compare field");
}

}  // namespace posbias
