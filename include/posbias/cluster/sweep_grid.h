// A sweep's GRID.json (`posbias sweep plan GRID.json`, sweep.h) as a record, one field table for
// its strict reader and its writer (manifest.json holds the grid it was planned from). The
// reader refuses an unknown or mistyped field naming it ("unknown GRID.json field 'slurm.gpus'");
// what a value means (an option `posbias COMMAND --help` lists, a seed given once, a Slurm field
// in its format and range) expand_sweep checks.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// A value the grid passes to the command as an option's text: a JSON string or number, kept as
// written (so the manifest holds the grid as it was given).
using GridValue = nlohmann::json;

// "resume": a file whose presence makes a run's start a resume, and the command that resumes.
struct SweepResume {
  GridValue when;
  std::vector<GridValue> command;
};

// "slurm": the sbatch options of the array job, each checked for its format and range.
struct SweepSlurm {
  std::optional<std::int64_t> cpus_per_task, concurrency;
  std::optional<GridValue> mem, time;  // a size or a time as text, or a number (MB, minutes)
  std::optional<std::string> partition, account;
  std::optional<std::vector<std::string>> extra;  // sbatch long options
};

struct SweepGrid {
  std::vector<GridValue> command;  // the posbias command and its options; {run}: a run's dir
  std::optional<std::map<std::string, std::vector<GridValue>>> grid;  // option → its values
  std::optional<std::vector<std::int64_t>> seeds;                     // each adds --seed S
  std::optional<SweepResume> resume;
  std::optional<GridValue> result;  // the file `sweep collect` reads
  std::optional<SweepSlurm> slurm;
};
const std::vector<FieldRow<SweepGrid>>& sweep_grid_fields();
nlohmann::json to_json(const SweepGrid& grid);
// Strict; std::invalid_argument naming a field (an unknown one with the names its object has).
SweepGrid sweep_grid_from_json(const nlohmann::json& j);
template <>
struct FieldCodec<SweepGrid> : TableCodec<SweepGrid, &sweep_grid_fields> {};

}  // namespace posbias
