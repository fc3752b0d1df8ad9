// A training checkpoint's metadata (train/checkpoint.h writes and reads it) as a record: one field
// table for the writer and the strict reader. Safetensors metadata is an object of strings, so
// every field is written as text: the config as its JSON (train_config_to_json), counts in
// decimal, train_seconds with 6 decimals and loss_sum with 17 significant digits, as the
// checkpoints of earlier builds hold them. A damaged field (text that is not its type) is refused
// with one line naming it ("checkpoint metadata field 'step' ..."); loss_sum and loss_count are
// absent from checkpoints written before log-spaced checkpoints existed (both 0 then).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/runfiles/train_config.h"

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
const std::vector<FieldRow<CheckpointInfo>>& checkpoint_info_fields();

// Everything a checkpoint's metadata holds besides its checksum.
struct CheckpointRecord {
  std::string format;  // "posbias-hop-checkpoint-2" (1: written before checksums)
  CheckpointInfo info;
  std::uint64_t seed = 0;  // info.config's seed, written again for a reader without JSON
  std::int64_t adam_steps = 0;
  std::string version;  // posbias's version that wrote it
};
const std::vector<FieldRow<CheckpointRecord>>& checkpoint_record_fields();

std::map<std::string, std::string> to_metadata(const CheckpointRecord& record);
// Strict: an unknown, missing or damaged field throws std::invalid_argument naming it; keys in
// `ignored` (the file's checksum) are skipped. The config is finalized when read, and the seed
// must be its seed.
CheckpointRecord checkpoint_record_from_metadata(const std::map<std::string, std::string>& metadata,
                                                 const std::vector<std::string>& ignored = {});

}  // namespace posbias
