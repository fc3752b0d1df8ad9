// Training checkpoints: RUN_DIR/checkpoints/step_NNNNNNNN.safetensors, written atomically.
// Each holds every parameter ("param/<name>"), AdamW's moments ("adam_m/<name>",
// "adam_v/<name>") and metadata (a CheckpointRecord, runfiles/checkpoint_record.h, beside the
// file's SHA-256). Loading
// checks every byte against the checksum, then the format, the config and every tensor's shape,
// before changing anything, so a damaged or foreign file is refused with one line naming it.
//
// A run's identity is its training config (RUN_DIR/train.json's "config": seed included). Every
// checkpoint carries it, and so does the run's model.safetensors (metadata kRunConfigKey, beside
// its SHA-256); every reader of a run (resume, eval, heads, discrepancy, serve, birth, text eval)
// checks the file it reads against train.json through require_same_run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posbias/hf/safetensors.h"
#include "posbias/hf/safetensors_index.h"
#include "posbias/model/transformer.h"
#include "posbias/runfiles/checkpoint_record.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/train/optimizer.h"

namespace posbias {

std::filesystem::path checkpoint_path(const std::filesystem::path& run_dir, std::int64_t step);
// Checkpoints of a run, oldest first (by step in the file name).
std::vector<std::filesystem::path> list_checkpoints(const std::filesystem::path& run_dir);
// The checkpoints `selection` picks (runfiles/checkpoint_selection.h), oldest first, each with
// its step; the errors of select_checkpoint_steps.
struct RunCheckpoint {
  std::int64_t step = 0;
  std::filesystem::path path;
};
std::vector<RunCheckpoint> select_checkpoints(const std::filesystem::path& run_dir,
                                              const CheckpointSelection& selection);

void save_checkpoint(const std::filesystem::path& path, const FlatParams& flat, const AdamW& adam,
                     const CheckpointInfo& info);

// Reads and validates the metadata alone. Throws std::runtime_error naming the file.
CheckpointInfo read_checkpoint_info(const std::filesystem::path& path);

// The metadata key of a run's model.safetensors that holds the run's training config (JSON).
inline constexpr std::string_view kRunConfigKey = "posbias_train_config";

// Throws std::runtime_error when `found` (the config `file` carries) is not `run`'s, the config
// in RUN_DIR/train.json: one line naming the file, the run and the first field that differs
// with both values.
void require_same_run(const TrainConfig& run, const TrainConfig& found,
                      const std::filesystem::path& file, const std::filesystem::path& run_dir);

// Restores parameters and (when adam is given) optimizer state. The file's config must match
// `expected` in every model and optimizer field.
CheckpointInfo load_checkpoint(const std::filesystem::path& path, FlatParams& flat, AdamW* adam,
                               const TrainConfig& expected);

// Where a resume starts: the newest checkpoint that loads (checksum, format, config and shapes
// all check), restored into the trainer's `flat` and `adam`, and the newer ones that did not,
// each with the reason. nullopt when none loads.
struct ResumePoint {
  std::optional<CheckpointInfo> info;
  std::vector<std::pair<std::filesystem::path, std::string>> damaged;  // newest first
};
// Changes nothing on disk. When every checkpoint that is intact belongs to another config than
// `expected` (train.json edited, or all foreign), the run cannot be told apart from another
// one: throws std::runtime_error naming train.json and the first differing field, and nothing
// is set aside.
ResumePoint find_resume_point(const std::filesystem::path& run_dir, FlatParams& flat, AdamW& adam,
                              const TrainConfig& expected);
// Renames each of `point.damaged` NAME.damaged (kept for inspection, no longer listed), one
// line on stderr each naming it and the reason, and one more line when no checkpoint was left
// and the run starts again from step 0.
void set_aside_damaged(const std::filesystem::path& run_dir, const ResumePoint& point);

// A trained hop model ready to evaluate: built from the checkpoint's own config.
struct LoadedModel {
  CheckpointInfo info;
  Transformer model{nullptr};
  std::filesystem::path path;
};
// `checkpoint` empty = the run's latest. Throws std::runtime_error for a missing run directory,
// a run without checkpoints or train.json, a corrupt checkpoint, or one of another run
// (require_same_run).
LoadedModel load_trained_model(const std::filesystem::path& run_dir,
                               const std::filesystem::path& checkpoint = {});

// Hugging Face weights (--weights), opened for load_hf_weights: a model.safetensors or a
// sharded checkpoint's model.safetensors.index.json (any *.json: its shards beside it). A file
// (or shard) with a checksum (kChecksumKey) must match it. A file in a run folder (train.json
// beside it) is that run's model.safetensors: it must have a checksum and carry the run's config
// (kRunConfigKey); an index there is refused. Files of other tools without either stay
// readable. Throws std::runtime_error naming the file.
SafetensorsCheckpoint open_model_weights(const std::filesystem::path& path);

// What --weights names, loaded into `model` (built from --config) by Hugging Face names: a file
// or sharded checkpoint as open_model_weights opens it, or a run's training checkpoint
// (RUN/checkpoints/step_N.safetensors, either format), checked as a resume checks it and, in its
// run's folder, against the run's config, then read as the Hugging Face tensors of the model it
// holds, so a step's checkpoint loads as the run's model.safetensors does. Throws
// std::runtime_error naming the file.
void load_model_weights(Transformer& model, const std::filesystem::path& path);

}  // namespace posbias
