#include "posbias/theory/fit_record.h"

#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<LastPositionRecord>>& last_position_record_fields();
const std::vector<FieldRow<FitTheoryRecord>>& fit_theory_record_fields();
template <>
struct FieldCodec<LastPositionRecord>
    : TableCodec<LastPositionRecord, &last_position_record_fields> {};
template <>
struct FieldCodec<FitTheoryRecord> : TableCodec<FitTheoryRecord, &fit_theory_record_fields> {};

const std::vector<FieldRow<LastPositionRecord>>& last_position_record_fields() {
  using P = LastPositionRecord;
  static const std::vector<FieldRow<P>> rows = {
      field<P, double, NanAsNull>("log10_measured", &P::log10_measured,
                                  "log10 of the measured influence at the last position"),
      field<P, double, NanAsNull>("log10_predicted", &P::log10_predicted,
                                  "log10 of the fitted theory's"),
  };
  return rows;
}

const std::vector<FieldRow<FitTheoryRecord>>& fit_theory_record_fields() {
  using T = FitTheoryRecord;
  static const std::vector<FieldRow<T>> rows = {
      field("layers", &T::layers, "H of the theory"),
      field("operator", &T::op, "the expected attention operator"),
      field("bootstrap", &T::bootstrap, "bootstrap resamples over seeds"),
      field("paths", &T::paths, "how paths through layer sets combine"),
  };
  return rows;
}

const std::vector<FieldRow<FitRecord>>& fit_record_fields() {
  using F = FitRecord;
  static const std::vector<FieldRow<F>> rows = {
      required(field<F, double, NanAsNull>("alpha", &F::alpha, "the fitted alpha")),
      field<F, std::vector<double>, NanAsNullList>("alpha_ci", &F::alpha_ci,
                                                   "its 95% bootstrap interval over seeds"),
      field<F, double, NanAsNull>("log10_gain", &F::log10_gain, "log10 of the fitted gain c"),
      field<F, double, NanAsNull>("spearman", &F::spearman,
                                  "Spearman on the positions before the query"),
      field<F, double, NanAsNull>("log_r2", &F::log_r2,
                                  "R² in log space on the positions before the query"),
      field<F, double, NanAsNull>("w1", &F::w1, "Wasserstein-1, in units of the length"),
      field<F, double, NanAsNull>("alpha_spearman", &F::alpha_spearman,
                                  "the alpha maximizing Spearman (grid)"),
      field<F, double, NanAsNull>("spearman_best", &F::spearman_best, "Spearman at alpha_spearman"),
      field("seeds", &F::seeds, "profiles measured"),
      field("last_position", &F::last_position, "the last position, compared apart"),
      field("theory", &F::theory, "the theory fitted"),
      field<F, std::vector<double>, NanAsNullList>("theory_log10", &F::theory_log10,
                                                   "log10 of the fitted theory, positions 0..L-1"),
      field("notes", &F::notes, "how the fit was made"),
  };
  return rows;
}

FitRecord fit_record(const FitResult& r, const FitSpec& spec) {
  FitRecord out;
  out.alpha = r.alpha;
  out.alpha_ci = {r.alpha_ci_low, r.alpha_ci_high};
  out.log10_gain = r.log10_gain;
  out.spearman = r.spearman;
  out.log_r2 = r.log_r2;
  out.w1 = r.w1;
  out.alpha_spearman = r.alpha_spearman;
  out.spearman_best = r.spearman_best;
  out.seeds = r.seeds;
  out.last_position = {r.log10_last_measured, r.log10_last_predicted};
  out.theory = {spec.layers, spec.op.describe(), spec.bootstrap, spec.paths};
  out.theory_log10 = r.theory_log10;
  out.notes =
      "alpha and gain fitted by least squares on log10 over the positions before the query; the "
      "last position "
      "is compared separately; w1 is in units of the sequence length";
  return out;
}

nlohmann::json to_json(const FitRecord& r) { return fields_to_json(fit_record_fields(), r); }

}  // namespace posbias
