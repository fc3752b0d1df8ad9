// Training checkpoints: RUN_DIR/checkpoints/step_NNNNNNNN.safetensors, written atomically.
// Each holds every parameter ("param/<name>"), AdamW's moments ("adam_m/<name>",
// "adam_v/<name>") and metadata: format, the training config JSON, seed, step, AdamW's step
// count, cumulative training seconds, the posbias version and the file's SHA-256. Loading
// checks every byte against the checksum, then the format, the config and every tensor's shape,
// before changing anything, so a damaged or foreign file is refused with one line naming it.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/train/optimizer.h"
#include "posbias/train/train_config.h"

namespace posbias {

struct CheckpointInfo {
  TrainConfig config;
  std::int64_t step = 0;
  double train_seconds = 0;  // cumulative wall time spent training up to this step
  // The training loss summed since the last evaluation, and over how many steps (nonzero when
  // the checkpoint falls between evaluations, as log-spaced ones do), so the next metrics line
  // of a resumed run averages the same steps.
  double loss_sum = 0;
  std::int64_t loss_count = 0;
};

std::filesystem::path checkpoint_path(const std::filesystem::path& run_dir, std::int64_t step);
// Checkpoints of a run, oldest first (by step in the file name).
std::vector<std::filesystem::path> list_checkpoints(const std::filesystem::path& run_dir);

void save_checkpoint(const std::filesystem::path& path, const FlatParams& flat, const AdamW& adam,
                     const CheckpointInfo& info);

// Reads and validates the metadata alone. Throws std::runtime_error naming the file.
CheckpointInfo read_checkpoint_info(const std::filesystem::path& path);

// Restores parameters and (when adam is given) optimizer state. The file's config must match
// `expected` in every model and optimizer field.
CheckpointInfo load_checkpoint(const std::filesystem::path& path, FlatParams& flat, AdamW* adam,
                               const TrainConfig& expected);

// Resuming: restores the run's newest checkpoint that loads (checksum, format, config and shapes
// all check) into `flat` and `adam`. Each newer one that does not is renamed NAME.damaged (kept
// for inspection, no longer listed) with one line on stderr naming it and the reason. nullopt
// when no checkpoint is left.
std::optional<CheckpointInfo> load_latest_intact_checkpoint(const std::filesystem::path& run_dir,
                                                            FlatParams& flat, AdamW& adam,
                                                            const TrainConfig& expected);

// A trained hop model ready to evaluate: built from the checkpoint's own config.
struct LoadedModel {
  CheckpointInfo info;
  Transformer model{nullptr};
  std::filesystem::path path;
};
// `checkpoint` empty = the run's latest. Throws std::runtime_error for a missing run directory,
// a run without checkpoints, or a corrupt checkpoint.
LoadedModel load_trained_model(const std::filesystem::path& run_dir,
                               const std::filesystem::path& checkpoint = {});

}  // namespace posbias
