#include "experiments/birth/birth_record.h"

#include <utility>

#include "posbias/arch/arch_codecs.h"
#include "posbias/hf/hf_config_codec.h"
#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<BirthMeasurementRecord>>& birth_measurement_record_fields();
const std::vector<FieldRow<PathSumFitRecord>>& path_sum_fit_record_fields();
const std::vector<FieldRow<MeasuredRatioRecord>>& measured_ratio_record_fields();
const std::vector<FieldRow<RatioRecord>>& ratio_record_fields();
const std::vector<FieldRow<ShapeScoreRecord>>& shape_score_record_fields();
const std::vector<FieldRow<PredictionRecord>>& prediction_record_fields();
const std::vector<FieldRow<ComparisonRecord>>& comparison_record_fields();
const std::vector<FieldRow<BirthRescoreRecord>>& birth_rescore_record_fields();

template <>
struct FieldCodec<BirthMeasurementRecord>
    : TableCodec<BirthMeasurementRecord, &birth_measurement_record_fields> {};
template <>
struct FieldCodec<PathSumFitRecord> : TableCodec<PathSumFitRecord, &path_sum_fit_record_fields> {};
template <>
struct FieldCodec<MeasuredRatioRecord>
    : TableCodec<MeasuredRatioRecord, &measured_ratio_record_fields> {};
template <>
struct FieldCodec<RatioRecord> : TableCodec<RatioRecord, &ratio_record_fields> {};
template <>
struct FieldCodec<ShapeScoreRecord> : TableCodec<ShapeScoreRecord, &shape_score_record_fields> {};
template <>
struct FieldCodec<PredictionRecord> : TableCodec<PredictionRecord, &prediction_record_fields> {};
template <>
struct FieldCodec<ComparisonRecord> : TableCodec<ComparisonRecord, &comparison_record_fields> {};
template <>
struct FieldCodec<BirthRescoreRecord>
    : TableCodec<BirthRescoreRecord, &birth_rescore_record_fields> {};
template <>
struct FieldCodec<std::vector<ShapeScoreRecord>> : ListCodec<ShapeScoreRecord> {};
template <>
struct FieldCodec<std::vector<ComparisonRecord>> : ListCodec<ComparisonRecord> {};
template <>
struct FieldCodec<std::vector<std::vector<double>>> : ListCodec<std::vector<double>> {};

const std::vector<FieldRow<BirthMeasurementRecord>>& birth_measurement_record_fields() {
  using M = BirthMeasurementRecord;
  static const std::vector<FieldRow<M>> rows = {
      required(field("method", &M::method, "the Jacobian method")),
      field("probes", &M::probes, "Hutchinson probes"),
      required(field("length", &M::length, "tokens per sequence (L)")),
      field("query", &M::query, "the query's position"),
      field("seeds", &M::seeds, "profiles averaged"),
      field("input", &M::input, "gaussian, tokens, or the token files read"),
      field("window", &M::window, "sliding-window keys (0: full causal)"),
      field("attn_init_scale", &M::attn_init_scale, "× the attention output projection's init std"),
      field("init", &M::init, "the init scheme, or checkpoint"),
      field("seed", &M::seed, "the base seed"),
      optional_field("target", &M::target, "the influence target"),
      optional_field("attention", &M::attention, "dense or blockwise attention"),
      optional_field("activation_checkpointing", &M::activation_checkpointing,
                     "whether the pass recomputed activations"),
      optional_field("planned_bytes", &M::planned_bytes, "the memory plan's bytes"),
      optional_field("cotangents_per_pass", &M::cotangents_per_pass,
                     "cotangents per checkpointed pass (null: not checkpointed)"),
      optional_field("stay_probes", &M::stay_probes,
                     "Gaussian probes per layer behind the MLP gains (absent: 8)"),
      required(field("weights", &M::weights, "init, run RUN, or the weights file")),
  };
  return rows;
}

const std::vector<FieldRow<PathSumFitRecord>>& path_sum_fit_record_fields() {
  using P = PathSumFitRecord;
  static const std::vector<FieldRow<P>> rows = {
      required(field<P, double, NanAsNull>("alpha", &P::alpha, "the fitted alpha")),
      field<P, double, NanAsNull>("log10_gain", &P::log10_gain, "log10 of the fitted gain"),
      field<P, double, NanAsNull>("spearman", &P::spearman,
                                  "Spearman on the positions before the query"),
      field<P, double, NanAsNull>("log_r2", &P::log_r2, "R² in log space"),
      field<P, double, NanAsNull>("w1", &P::w1, "Wasserstein-1, in units of the length"),
      field("theory_log10", &P::theory_log10, "log10 of the fitted theory, positions 0..L-1"),
  };
  return rows;
}

const std::vector<FieldRow<MeasuredRatioRecord>>& measured_ratio_record_fields() {
  using R = MeasuredRatioRecord;
  static const std::vector<FieldRow<R>> rows = {
      field<R, double, NanAsNull>("measured", &R::measured, "the measured ratio"),
      field("measured_ci", &R::measured_ci, "its bootstrap interval (null: none)"),
      field<R, double, NanAsNull>("predicted", &R::predicted, "the prediction's ratio"),
  };
  return rows;
}

const std::vector<FieldRow<RatioRecord>>& ratio_record_fields() {
  using R = RatioRecord;
  static const std::vector<FieldRow<R>> rows = {
      field<R, double, NanAsNull>("measured", &R::measured, "the measured ratio"),
      field<R, double, NanAsNull>("predicted", &R::predicted, "the prediction's ratio"),
  };
  return rows;
}

const std::vector<FieldRow<ShapeScoreRecord>>& shape_score_record_fields() {
  using S = ShapeScoreRecord;
  static const std::vector<FieldRow<S>> rows = {
      required(field("model", &S::model, "theory or rollout")),
      field("estimator", &S::estimator, "how α was estimated"),
      field("paths", &S::paths, "the path sum"),
      field("operator", &S::op, "the expected attention operator"),
      field<S, double, NanAsNull>("median_abs_log10_error", &S::median_abs_log10_error,
                                  "median |log10 error| against the measured mean"),
      field("median_abs_log10_error_ci", &S::median_abs_log10_error_ci,
            "its bootstrap interval (null: none)"),
      field<S, double, NanAsNull>("max_abs_log10_error", &S::max_abs_log10_error,
                                  "largest |log10 error|"),
      field<S, double, NanAsNull>("w1", &S::w1, "Wasserstein-1 / (L-1)"),
      field("w1_ci", &S::w1_ci, "its bootstrap interval (null: none)"),
      field("argmin_measured", &S::argmin_measured, "the measured minimum's position"),
      field("argmin_measured_ci", &S::argmin_measured_ci, "its bootstrap interval (null: none)"),
      field("argmin_predicted", &S::argmin_predicted, "the predicted minimum's position"),
      field("recency_ratio", &S::recency_ratio, "p_L / p_mid"),
      field("primacy_ratio", &S::primacy_ratio, "p_1 / p_mid"),
      optional_field("first_min_ratio", &S::first_min_ratio, "p_1 / p_min"),
  };
  return rows;
}

const std::vector<FieldRow<PredictionRecord>>& prediction_record_fields() {
  using P = PredictionRecord;
  static const std::vector<FieldRow<P>> rows = [] {
    std::vector<FieldRow<P>> r = inherited_fields<P>(shape_score_record_fields());
    r.push_back(field("alpha", &P::alpha, "the α̂ per layer it used"));
    r.push_back(field("profile", &P::profile, "the predicted profile"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<ComparisonRecord>>& comparison_record_fields() {
  using C = ComparisonRecord;
  static const std::vector<FieldRow<C>> rows = {
      required(field("model", &C::model, "the model of the profile")),
      field("free_params", &C::free_params, "its fitted parameters"),
      field<C, double, NanAsNull>("heldout_median_abs_log10_error",
                                  &C::heldout_median_abs_log10_error,
                                  "median |log10 error| on the held-out seeds"),
      field<C, double, NanAsNull>("heldout_max_abs_log10_error", &C::heldout_max_abs_log10_error,
                                  "largest |log10 error| on them"),
      field<C, double, NanAsNull>("heldout_w1", &C::heldout_w1, "Wasserstein-1 on them"),
      field("heldout_argmin", &C::heldout_argmin, "their mean's minimum"),
      field("argmin_predicted", &C::argmin_predicted, "the model's minimum"),
      field("parameters", &C::parameters, "the fitted parameters"),
  };
  return rows;
}

const std::vector<FieldRow<BirthRescoreRecord>>& birth_rescore_record_fields() {
  using R = BirthRescoreRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("from", &R::from, "the stored result re-scored", "PATH")),
      field("seconds", &R::seconds, "the re-score's wall seconds"),
      field("peak_rss_mb", &R::peak_rss_mb, "its peak memory"),
      field("machine", &R::machine, "its machine"),
  };
  return rows;
}

const std::vector<FieldRow<BirthRecord>>& birth_record_fields() {
  using B = BirthRecord;
  static const std::vector<FieldRow<B>> rows = [] {
    std::vector<FieldRow<B>> r = inherited_fields<B>(fit_record_fields());
    std::vector<FieldRow<B>> own = {
        position_base_field(&B::position_base),
        field("config", &B::config, "the model, as a Hugging Face config.json"),
        required(field("measurement", &B::measurement, "how the profile was measured")),
        field("path_sums", &B::path_sums, "the fit with each path sum"),
        field("nofit", &B::nofit, "the theory with the measured α̂ (null: none)"),
        field("rollout", &B::rollout, "the rollout with the measured α̂ (null: none)"),
        optional_field("rollout_skipped", &B::rollout_skipped, "why there is no rollout"),
        field("nofit_variants", &B::nofit_variants, "the no-fit theory's other variants"),
        field("operator_control", &B::operator_control,
              "plain causal attention against a windowed, ALiBi or null-sink model (null: none)"),
        field("alpha_seeds", &B::alpha_seeds, "α̂ per seed, by estimator"),
        field("comparison", &B::comparison, "models of the profile on held-out seeds"),
        required(field("profile", &B::profile, "the mean influence of positions 0..q − 1")),
        field("profile_seeds", &B::profile_seeds, "each seed's profile"),
        optional_field("shares", &B::shares, "each region's share over the seeds"),
        optional_field("u_test", &B::u_test, "the U test over the seeds"),
        field<B, double, NanAsNull>("attention_entropy_ratio", &B::attention_entropy_ratio,
                                    "attention entropy against uniform (null: not measured)"),
        field("seconds", &B::seconds, "wall seconds"),
        field("peak_rss_mb", &B::peak_rss_mb, "peak memory"),
        field("machine", &B::machine, "the machine"),
        optional_field("rescore", &B::rescore, "a re-score's own time, memory and machine"),
    };
    for (auto& row : own) r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

nlohmann::json to_json(const BirthRecord& r) { return fields_to_json(birth_record_fields(), r); }

namespace {

void rebase_score(ShapeScoreRecord& s, std::int64_t shift) {
  s.argmin_measured -= shift;
  s.argmin_predicted -= shift;
  if (s.argmin_measured_ci)
    for (double& end : *s.argmin_measured_ci) end -= static_cast<double>(shift);
}

}  // namespace

BirthRecord birth_record_from_json(const nlohmann::json& j) {
  const auto* measurement =
      j.is_object() && j.contains("measurement") ? &j["measurement"] : nullptr;
  nlohmann::json renamed;  // a file whose init scale has its earlier name
  if (measurement && measurement->is_object() && measurement->contains("attn_scale") &&
      !measurement->contains("attn_init_scale")) {
    renamed = j;
    renamed["measurement"]["attn_init_scale"] = renamed["measurement"]["attn_scale"];
    renamed["measurement"].erase("attn_scale");
  }
  auto [r, shift] = read_positioned(birth_record_fields(), renamed.is_null() ? j : renamed,
                                    &BirthRecord::position_base, "birth field");
  if (shift == 0) return r;
  r.measurement.query -= shift;
  for (auto* p : {&r.nofit, &r.rollout})
    if (*p) rebase_score(**p, shift);
  for (ShapeScoreRecord& s : r.nofit_variants) rebase_score(s, shift);
  if (r.operator_control) rebase_score(*r.operator_control, shift);
  for (ComparisonRecord& c : r.comparison) {
    c.heldout_argmin -= shift;
    c.argmin_predicted -= shift;
  }
  if (r.shares) rebase_regions(*r.shares, shift);
  return r;
}

}  // namespace posbias
