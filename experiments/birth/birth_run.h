// `posbias birth --run RUN --checkpoints all|last|STEPS`: the influence profile of a training
// run's checkpoints on its held-out text, one `birth` measurement per checkpoint (the same
// engines, targets, no-fit prediction and fit), so the profile can be followed from step 0 to the
// end. Sequence s (s = 0..seeds-1) is held-out window ⌊s·n/seeds⌋ of the n consecutive
// windows of L + 1 ids (text_data.h), the same for every checkpoint.
//
// The file: birth_run_record.h (BirthRunRecord).
// Figures: profiles over training (one curve per checkpoint, unit sum, log scale) and the
// middle-to-ends ratio and dead-zone depth against step.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "experiments/birth/birth.h"
#include "posbias/theory/birth_run_record.h"
#include "posbias/theory/gradient_profile.h"
#include "posbias/theory/profile_summary.h"

namespace posbias {

struct BirthCheckpoint {
  std::int64_t step = 0;
  std::string path;
  BirthResult result;
  std::vector<double> alpha;  // α̂ per layer (jacobian estimator), seed mean
  // The gradient reaching each input position during training (metrics.jsonl's
  // grad_per_position.embed at this step; empty when the step logged none), against the
  // theory's prediction from this checkpoint's α̂ (theory/gradient_profile.h) at the training
  // length, and a flat profile as the negative control.
  std::vector<double> gradient;
  GradientProfile predicted_gradient;
  std::optional<ShapeComparison> column_sum_score, root_sum_square_score, flat_score;
};

// Shape statistics of a mean profile (positions 1..q): what the JSON's log10_middle_to_ends,
// argmin and log10_dead_zone_depth are computed from.
ProfileSummary profile_shape(const std::vector<double>& profile);

struct BirthRunResult {
  BirthOptions options;
  std::vector<BirthCheckpoint> checkpoints;  // by step
};

BirthRunResult measure_birth_run(const BirthOptions& options);
// The result as its file holds it: the sequences' percentile bands, the profile's shape, the
// shares and U test over the sequences, and with two or more checkpoints the share change.
BirthRunRecord birth_run_record(const BirthRunResult& result);
// STEM_profiles (profiles over training), STEM_shape (middle-to-ends and dead-zone depth
// against step) and STEM_gradient (the gradient per position at the first checkpoint that
// logged one, against the two predictions): all from the file's record, so `birth --rescore`
// redraws them from a stored result; run_birth_run adds STEM_shares (each region's share
// against step).
void render_birth_run_figures(const BirthRunRecord& record, const std::string& stem);
// Measures, writes --json and the figures, and returns the result.
BirthRunResult run_birth_run(const BirthOptions& options);

}  // namespace posbias
