#include "experiments/theory/theory_shares_record.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace posbias {

const std::vector<FieldRow<TheorySharesRunRecord>>& theory_shares_run_record_fields();
template <>
struct FieldCodec<TheorySharesRunRecord>
    : TableCodec<TheorySharesRunRecord, &theory_shares_run_record_fields> {};
template <>
struct FieldCodec<std::vector<TheorySharesRunRecord>> : ListCodec<TheorySharesRunRecord> {};

const std::vector<FieldRow<TheorySharesRunRecord>>& theory_shares_run_record_fields() {
  using R = TheorySharesRunRecord;
  static const std::vector<FieldRow<R>> rows = [] {
    std::vector<FieldRow<R>> r = {
        required(field("file", &R::file, "the birth --json result", "PATH")),
        field("label", &R::label, "its file's stem"),
        field("length", &R::length, "its profile's positions"),
        field("seeds", &R::seeds, "its per-seed profiles"),
        optional_field("change_from_baseline", &R::change_from_baseline,
                       "each region's log10 share against --baseline's, paired by seed"),
        optional_field("middle_verdict", &R::middle_verdict,
                       "the middle fifth's change: helps, no effect or hurts"),
        optional_field("nofit_change_from_baseline", &R::nofit_change_from_baseline,
                       "each region's log10 change in the no-fit predictions (nofit.profile), "
                       "run against baseline"),
        optional_field("nofit_middle_agreement", &R::nofit_middle_agreement,
                       "where the predicted middle change falls against the measured interval"),
    };
    for (auto& row : member_fields(&R::profile_shares, profile_shares_record_fields()))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<TheorySharesRecord>>& theory_shares_record_fields() {
  using R = TheorySharesRecord;
  static const std::vector<FieldRow<R>> rows = {
      position_base_field(&R::position_base),
      optional_field("baseline", &R::baseline, "the --baseline file the runs are paired with"),
      required(field("runs", &R::runs, "one entry per birth result")),
  };
  return rows;
}

nlohmann::json to_json(const TheorySharesRecord& r) {
  return fields_to_json(theory_shares_record_fields(), r);
}

TheorySharesRecord theory_shares_record_from_json(const nlohmann::json& j) {
  auto [r, shift] = read_positioned(theory_shares_record_fields(), j,
                                    &TheorySharesRecord::position_base, "shares field");
  for (TheorySharesRunRecord& run : r.runs)
    if (run.profile_shares.shares) rebase_regions(*run.profile_shares.shares, shift);
  return r;
}

}  // namespace posbias
