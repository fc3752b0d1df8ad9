// A training run's RUN_DIR/train.json: its config and where and how it was made, one field table
// for the writer (`train` on a fresh run) and the strict reader every command that opens a run
// goes through. An unknown or mistyped field is refused naming it ("train.json field 'threads'
// must be a number (an integer)").
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

struct RunHeader {
  TrainConfig config;
  MachineRecord machine;       // the machine the run started on
  std::optional<int> threads;  // torch's thread count at the start (runs before it: none)
  std::string version;         // posbias's version
  // A text run's corpus folder and the fingerprint of its files (other runs: none).
  std::optional<std::string> corpus, corpus_fingerprint;
};
const std::vector<FieldRow<RunHeader>>& run_header_fields();
nlohmann::json to_json(const RunHeader& header);
// Strict; std::invalid_argument naming the field. The config is as written (not finalized).
RunHeader run_header_from_json(const nlohmann::json& j);

// RUN_DIR/train.json read, its config finalized. Throws std::invalid_argument for a missing
// directory, std::runtime_error for a directory without train.json or with a damaged one.
RunHeader read_run_header(const std::filesystem::path& run_dir);

}  // namespace posbias
