#include "posbias/theory/birth_run_record.h"

#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<BirthFitRecord>>& birth_fit_record_fields();
const std::vector<FieldRow<GradientErrorsRecord>>& gradient_errors_record_fields();
const std::vector<FieldRow<GradientRecord>>& gradient_record_fields();
const std::vector<FieldRow<NofitRecord>>& nofit_record_fields();
const std::vector<FieldRow<BirthRunCheckpointRecord>>& birth_run_checkpoint_record_fields();

template <>
struct FieldCodec<BirthFitRecord> : TableCodec<BirthFitRecord, &birth_fit_record_fields> {};
template <>
struct FieldCodec<GradientErrorsRecord>
    : TableCodec<GradientErrorsRecord, &gradient_errors_record_fields> {};
template <>
struct FieldCodec<GradientRecord> : TableCodec<GradientRecord, &gradient_record_fields> {};
template <>
struct FieldCodec<NofitRecord> : TableCodec<NofitRecord, &nofit_record_fields> {};
template <>
struct FieldCodec<BirthRunCheckpointRecord>
    : TableCodec<BirthRunCheckpointRecord, &birth_run_checkpoint_record_fields> {};
template <>
struct FieldCodec<std::vector<BirthRunCheckpointRecord>> : ListCodec<BirthRunCheckpointRecord> {};

const std::vector<FieldRow<BirthFitRecord>>& birth_fit_record_fields() {
  using F = BirthFitRecord;
  static const std::vector<FieldRow<F>> rows = {
      field<F, double, NanAsNull>("alpha", &F::alpha, "the fitted alpha"),
      field<F, double, NanAsNull>("log_r2", &F::log_r2, "R² of the fit in log space"),
  };
  return rows;
}

const std::vector<FieldRow<GradientErrorsRecord>>& gradient_errors_record_fields() {
  using E = GradientErrorsRecord;
  static const std::vector<FieldRow<E>> rows = {
      field<E, double, NanAsNull>("column_sum", &E::column_sum, "column-sum prediction"),
      field<E, double, NanAsNull>("root_sum_square", &E::root_sum_square,
                                  "root-sum-square prediction"),
      field<E, double, NanAsNull>("flat", &E::flat, "a flat profile (the negative control)"),
  };
  return rows;
}

const std::vector<FieldRow<GradientRecord>>& gradient_record_fields() {
  using G = GradientRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("measured", &G::measured, "the gradient per position the run logged (null: none)"),
      field("column_sum", &G::column_sum, "predicted from α̂: column sums"),
      field("root_sum_square", &G::root_sum_square, "predicted from α̂: root sum of squares"),
      field("median_abs_log10_error", &G::median_abs_log10_error,
            "each prediction's median |log10 error|"),
  };
  return rows;
}

const std::vector<FieldRow<NofitRecord>>& nofit_record_fields() {
  using N = NofitRecord;
  static const std::vector<FieldRow<N>> rows = {
      field("estimator", &N::estimator, "how α was estimated without a fit"),
      field<N, double, NanAsNull>("median_abs_log10_error", &N::median_abs_log10_error,
                                  "median |log10 error| against the measured profile"),
      field<N, double, NanAsNull>("max_abs_log10_error", &N::max_abs_log10_error,
                                  "largest |log10 error|"),
      field("profile", &N::profile, "the predicted profile"),
  };
  return rows;
}

const std::vector<FieldRow<BirthRunCheckpointRecord>>& birth_run_checkpoint_record_fields() {
  using C = BirthRunCheckpointRecord;
  static const std::vector<FieldRow<C>> rows = {
      required(field("step", &C::step, "the checkpoint's step")),
      field("checkpoint", &C::checkpoint, "the checkpoint file", "PATH"),
      required(field("profile", &C::profile, "the mean influence share of positions 0..q − 1")),
      field("profile_low", &C::profile_low, "2.5 percentile over the sequences"),
      field("profile_high", &C::profile_high, "97.5 percentile over the sequences"),
      field("alpha", &C::alpha, "α̂ per layer"),
      field("fit", &C::fit, "the fitted α"),
      required(field<C, double, NanAsNull>("log10_middle_to_ends", &C::log10_middle_to_ends,
                                           "log10 of the middle against the ends")),
      required(field("argmin", &C::argmin, "the dead zone's position (0: none)")),
      required(field<C, double, NanAsNull>("log10_dead_zone_depth", &C::log10_dead_zone_depth,
                                           "log10 of the dead zone against the ends")),
      field<C, double, NanAsNull>("attention_entropy_ratio", &C::attention_entropy_ratio,
                                  "attention entropy against uniform"),
      optional_field("gradient", &C::gradient, "the gradient per position and its predictions"),
      optional_field("shares", &C::shares, "each region's share over the sequences"),
      optional_field("u_test", &C::u_test, "the U test over the sequences"),
      optional_field("nofit", &C::nofit, "the no-fit prediction"),
  };
  return rows;
}

const std::vector<FieldRow<BirthRunRecord>>& birth_run_record_fields() {
  using R = BirthRunRecord;
  static const std::vector<FieldRow<R>> rows = {
      position_base_field(&R::position_base),
      field("run", &R::run, "the run folder", "PATH"),
      required(field("target", &R::target, "the influence target")),
      field("method", &R::method, "the Jacobian method"),
      required(field("length", &R::length, "tokens per sequence")),
      required(field("query", &R::query, "the query position")),
      field("sequences", &R::sequences, "held-out sequences"),
      required(field("checkpoints", &R::checkpoints, "one measurement per checkpoint")),
      optional_field("shares_change", &R::shares_change,
                     "each region's log10 share, last checkpoint against the first"),
  };
  return rows;
}

nlohmann::json to_json(const BirthRunRecord& r) {
  return fields_to_json(birth_run_record_fields(), r);
}

BirthRunRecord birth_run_record_from_json(const nlohmann::json& j) {
  auto [r, shift] =
      read_positioned(birth_run_record_fields(), j, &BirthRunRecord::position_base, "birth field");
  r.query -= shift;
  for (BirthRunCheckpointRecord& c : r.checkpoints) {
    if (c.argmin > 0) c.argmin -= shift;
    if (c.shares) rebase_regions(*c.shares, shift);
  }
  return r;
}

}  // namespace posbias
