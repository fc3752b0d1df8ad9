#include "experiments/mitigations/remedy_row.h"

namespace posbias {

const std::vector<RemedyMeasurement>& remedy_measurements() {
  static const std::vector<RemedyMeasurement> m = {
      {"at birth: middle fifth's share, log10 change (larger: less bias)", &RemedyRow::birth_middle,
       "birth_middle_share"},
      {"after training: first 8 tokens' share of the answer's influence, log10 change (smaller: "
       "less primacy)",
       &RemedyRow::trained_primacy, "trained_first8_share"},
      {"kv exact match at the middle depth, L", &RemedyRow::middle_at_length, "middle_accuracy_L"},
      {"kv exact match at the middle depth, 2L", &RemedyRow::middle_at_twice, "middle_accuracy_2L"},
      {"kv depth-averaged exact match, L", &RemedyRow::mean_at_length, "mean_accuracy_L"},
      {"training seconds per step", &RemedyRow::seconds_per_step, "seconds_per_step"}};
  return m;
}

const std::vector<FieldRow<RemedyRow>>& remedy_row_fields() {
  using R = RemedyRow;
  using EffectCodec = TableCodec<PairedEffect, &paired_effect_fields>;
  static const std::vector<FieldRow<R>> rows = [] {
    std::vector<FieldRow<R>> r = {
        field("name", &R::name, "the remedy and the model it is applied to"),
        field("when", &R::when, "at birth, trained or at inference"),
        field("option", &R::option, "the command option that applies it"),
        field("measured", &R::measured, "on what, against what, which quantity"),
    };
    for (const RemedyMeasurement& m : remedy_measurements())
      r.push_back(optional_field<R, PairedEffect, EffectCodec>(m.key, m.effect, m.header));
    return r;
  }();
  return rows;
}

}  // namespace posbias
