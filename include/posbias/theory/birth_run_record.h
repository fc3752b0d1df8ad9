// `birth --run`'s result (birth_run.h), as the file holds it: one field table for the writer
// (run_birth_run, and the figures drawn from it) and the reader (`seeds`, seeds_command.cc).
// Files of earlier builds lack the shares, the U test and the share change: optional fields.
// The shares, U test and share change are theory/shares_record.h's records.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/core/position_base.h"
#include "posbias/theory/alpha_estimator.h"
#include "posbias/theory/influence_method.h"
#include "posbias/theory/shares_record.h"

namespace posbias {

// The fitted α and how well the fit's profile matches (log-space R²).
struct BirthFitRecord {
  double alpha = 0, log_r2 = 0;
};

// The three gradient predictions' median |log10 error| (null: not scored).
struct GradientErrorsRecord {
  double column_sum = NAN, root_sum_square = NAN, flat = NAN;
};

// The gradient reaching each position during training, and the theory's predictions of it.
struct GradientRecord {
  std::optional<std::vector<double>> measured;  // null: the step logged none
  std::vector<double> column_sum, root_sum_square;
  GradientErrorsRecord median_abs_log10_error;
};

// The no-fit prediction: its estimator, its errors and its profile.
struct NofitRecord {
  AlphaEstimator estimator = AlphaEstimator::kPositions;
  double median_abs_log10_error = NAN, max_abs_log10_error = NAN;
  std::vector<double> profile;
};

struct BirthRunCheckpointRecord {
  std::int64_t step = 0;
  std::string checkpoint;
  std::vector<double> profile, profile_low, profile_high;
  std::vector<double> alpha;  // α̂ per layer
  BirthFitRecord fit;
  double log10_middle_to_ends = 0;
  std::int64_t argmin = 0;
  double log10_dead_zone_depth = 0;
  double attention_entropy_ratio = NAN;  // null: not measured
  std::optional<GradientRecord> gradient;
  std::optional<SharesRecord> shares;
  std::optional<UTestRecord> u_test;
  std::optional<NofitRecord> nofit;
};

struct BirthRunRecord {
  std::int64_t position_base = kPositionBase;
  std::string run;
  InfluenceTarget target = InfluenceTarget::kHidden;
  JacobianMethod method = JacobianMethod::kExact;
  std::int64_t length = 0, query = 0, sequences = 0;
  std::vector<BirthRunCheckpointRecord> checkpoints;
  std::optional<ShareChangeRecord> shares_change;
};
const std::vector<FieldRow<BirthRunRecord>>& birth_run_record_fields();

nlohmann::json to_json(const BirthRunRecord& record);
// Strict: an unknown or mistyped field, or missing checkpoints or a checkpoint's step or
// profile, throws std::invalid_argument naming it ("birth field 'checkpoints.2.profile'"). A
// 1-based file's positions are moved to 0-based (position_base.h).
BirthRunRecord birth_run_record_from_json(const nlohmann::json& j);

}  // namespace posbias
