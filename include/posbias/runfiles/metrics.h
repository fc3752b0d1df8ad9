// A training run's metrics.jsonl: one row per evaluation, its fields those of MetricsRow
// (metrics_row_fields). Read back for the figures, the crossing steps that show learning
// dynamics, and trimming after a resume.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// One logged step. Hop and kv runs have `acc`; text runs the held-out fields instead, and
// `passkey_exact_match` when they train with needles.
struct MetricsRow {
  std::int64_t step = 0;
  double loss = NAN;  // NaN (null in the file) at step 0: no training yet
  double lr = 0;
  std::optional<std::map<std::string, double>> acc;  // "1".."4", "all" (kv: "all")
  std::optional<double> heldout_loss, bits_per_byte;
  std::optional<std::vector<double>> loss_per_position;
  std::optional<std::map<std::string, std::vector<double>>> grad_per_position;
  std::optional<double> passkey_exact_match;
  double tokens_per_s = 0, train_seconds = 0;
};

const std::vector<FieldRow<MetricsRow>>& metrics_row_fields();
nlohmann::json metrics_row_to_json(const MetricsRow& row);
// Strict: an unknown or mistyped field, or a missing step, loss or lr, throws
// std::invalid_argument naming it.
MetricsRow metrics_row_from_json(const nlohmann::json& j);

// One line; throws std::invalid_argument when it is not a metrics row.
MetricsRow parse_metrics_line(const std::string& line);
// Lines that do not parse are skipped. Missing file = empty.
std::vector<MetricsRow> read_metrics(const std::filesystem::path& path);

// A resumed run's rows: exactly one for each of `logged_steps` (the steps the run evaluated at
// up to the checkpoint it resumes from, in order), taken from the file; rows after the last one
// (logged after that checkpoint) are left out. The file is rewritten whole and atomically, so
// a line that does not parse, or a missing, repeated or unexpected row, is damage, and the
// checkpoints cannot rebuild it (a row's accuracy needs that step's weights): throws
// std::runtime_error naming the file and the line or step, saying the resume is refused.
std::vector<MetricsRow> read_resumed_metrics(const std::filesystem::path& path,
                                             const std::vector<std::int64_t>& logged_steps);

// The row in a few words for a progress bar: the training loss (when the step trained) and
// the held-out metric the run logs: "loss 0.934, held-out accuracy 0.412" (hop and kv runs,
// all hops), or "loss 3.21, held-out 2.05 bits/byte" (text runs, with the passkey exact match
// when it has one).
std::string metrics_status(const MetricsRow& row);

// The first step at which acc[key] >= threshold, if any.
std::optional<std::int64_t> first_crossing(const std::vector<MetricsRow>& rows,
                                           const std::string& key, double threshold);

// STEM_accuracy.{svg,png,gp}: held-out accuracy per hop against step, measured on inputs of
// `eval_length` tokens (the run's --length, also when it trains up to --length-max); STEM_loss:
// training loss.
void render_training_figures(const std::vector<MetricsRow>& rows, const std::string& title,
                             std::int64_t eval_length, const std::filesystem::path& stem);
// Text runs: STEM_loss (training and held-out loss, and bits per byte, against step),
// STEM_loss_per_position (held-out loss at each position, one curve per logged step) and
// STEM_gradients (per-position gradient norms at the embeddings and each logged layer, one
// curve per step, log scale).
void render_text_training_figures(const std::vector<MetricsRow>& rows, const std::string& title,
                                  const std::filesystem::path& stem);

}  // namespace posbias
