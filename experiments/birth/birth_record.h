// `birth --json`'s result at init (or of given weights; birth.h's BirthResult) as the file holds
// it: one field table for the writer (run_birth, birth --rescore) and the readers (birth
// --rescore, the terminal summary). The fit's fields sit at the top (fit_record.h); the model's
// config is an HfConfig, written and read as its config.json (hf_config_codec.h); the
// machine is a MachineRecord (core/machine_record.h). Files of earlier builds lack the memory
// plan's fields, the shares and the U test: optional fields. Values that are not finite are null.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/position_base.h"
#include "posbias/hf/hf_config.h"
#include "posbias/theory/alpha_estimator.h"
#include "posbias/theory/fit_record.h"
#include "posbias/theory/influence_method.h"
#include "posbias/theory/shares_record.h"

namespace posbias {

// How the profile was measured.
struct BirthMeasurementRecord {
  JacobianMethod method = JacobianMethod::kExact;
  std::int64_t probes = 0, length = 0, query = 0, seeds = 0;
  std::string input;  // gaussian, tokens, or the token files read
  std::int64_t window = 0;
  double attn_init_scale = 1;  // "attn_scale" in files of earlier builds
  std::string init;            // the init scheme, or "checkpoint"
  std::uint64_t seed = 0;
  std::optional<InfluenceTarget> target;
  std::optional<AttentionPath> attention;
  std::optional<bool> activation_checkpointing;
  std::optional<double> planned_bytes;
  std::optional<std::optional<std::int64_t>> cotangents_per_pass;  // null without checkpointing
  std::optional<std::int64_t> stay_probes;  // absent in files of earlier builds: kStayProbes
  std::string weights;                      // "init", "run RUN", or the weights file
};

// One path sum's fit.
struct PathSumFitRecord {
  double alpha = NAN, log10_gain = NAN, spearman = NAN, log_r2 = NAN, w1 = NAN;
  std::vector<double> theory_log10;
};

// A measured ratio with its bootstrap interval (null: none) and the prediction's.
struct MeasuredRatioRecord {
  double measured = NAN;
  std::optional<std::vector<double>> measured_ci;
  double predicted = NAN;
};
struct RatioRecord {
  double measured = NAN, predicted = NAN;
};

// A prediction made without fitting, scored against the measured profile.
struct ShapeScoreRecord {
  std::string model;
  AlphaEstimator estimator = AlphaEstimator::kJacobian;
  std::string op;  // "operator" in the file
  PathSum paths = PathSum::kLinear;
  double median_abs_log10_error = NAN, max_abs_log10_error = NAN, w1 = NAN;
  std::optional<std::vector<double>> median_abs_log10_error_ci, w1_ci, argmin_measured_ci;
  std::int64_t argmin_measured = 0, argmin_predicted = 0;
  MeasuredRatioRecord recency_ratio, primacy_ratio;
  std::optional<RatioRecord> first_min_ratio;  // p_1 / p_min
};
// The score with the α it used and its profile.
struct PredictionRecord : ShapeScoreRecord {
  std::vector<double> alpha;  // α̂ per layer (seed mean)
  std::vector<double> profile;
};

// One model of the profile scored on held-out seeds.
struct ComparisonRecord {
  std::string model;
  std::int64_t free_params = 0;
  double heldout_median_abs_log10_error = NAN, heldout_max_abs_log10_error = NAN, heldout_w1 = NAN;
  std::int64_t heldout_argmin = 0, argmin_predicted = 0;
  std::vector<double> parameters;
};

// A re-score's own time, memory and machine (birth --rescore; the rest is the stored file's).
struct BirthRescoreRecord {
  std::string from;
  double seconds = 0, peak_rss_mb = 0;
  MachineRecord machine;
};

struct BirthRecord : FitRecord {
  std::int64_t position_base = kPositionBase;
  HfConfig config = hf_config_from_model(ModelConfig{});  // the model measured
  BirthMeasurementRecord measurement;
  std::map<std::string, PathSumFitRecord> path_sums;
  std::optional<PredictionRecord> nofit, rollout;  // null: not predicted
  std::optional<std::string> rollout_skipped;
  std::vector<ShapeScoreRecord> nofit_variants;
  std::optional<ShapeScoreRecord> operator_control;  // null: no window, ALiBi or null sink
  std::map<std::string, std::vector<std::vector<double>>>
      alpha_seeds;  // estimator → [seed][layer] α̂
  std::vector<ComparisonRecord> comparison;
  std::vector<double> profile;
  std::vector<std::vector<double>> profile_seeds;
  std::optional<SharesRecord> shares;
  std::optional<UTestRecord> u_test;
  double attention_entropy_ratio = NAN;
  double seconds = 0, peak_rss_mb = 0;
  MachineRecord machine;
  std::optional<BirthRescoreRecord> rescore;
};
const std::vector<FieldRow<BirthRecord>>& birth_record_fields();

nlohmann::json to_json(const BirthRecord& record);
// Strict: an unknown or mistyped field, or a missing measurement or profile, throws
// std::invalid_argument naming it ("birth field 'nofit.recency_ratio.measured'"). A 1-based
// file's positions are moved to 0-based (position_base.h), and an earlier build's
// measurement.attn_scale is read as attn_init_scale.
BirthRecord birth_record_from_json(const nlohmann::json& j);

}  // namespace posbias
