// The figures a training run draws when it ends (RUN_DIR/training_*), from its metrics rows and
// its config, and drawn again from the files it keeps (`posbias train --redraw`), by the same
// function: a hop or kv run's held-out accuracy and loss, a text run's loss, loss per position
// and gradients (runfiles/metrics.h).
#pragma once

#include <filesystem>
#include <vector>

#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

void render_run_training_figures(const std::vector<MetricsRow>& rows, const TrainConfig& config,
                                 const std::filesystem::path& stem);

// The train.json beside a metrics file, as a run folder and docs/data keep them:
// DIR/metrics.jsonl -> DIR/train.json, DIR/P-metrics.jsonl -> DIR/P-train.json. Throws
// std::invalid_argument for a file named otherwise.
std::filesystem::path train_json_beside(const std::filesystem::path& metrics);

// Reads METRICS (metrics.jsonl) and the train.json beside it and draws the run's figures at
// STEM (STEM_accuracy, ...). Throws std::runtime_error naming the file for a missing or damaged
// one, or a metrics file without rows.
void redraw_training_figures(const std::filesystem::path& metrics,
                             const std::filesystem::path& stem);

}  // namespace posbias
