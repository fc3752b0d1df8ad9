// `posbias sweep`: a grid of runs of any posbias command (its options × seeds), planned into a
// directory that Slurm runs as one array job (or `run-local.sh` runs on this machine), and
// gathered back into one table with seed intervals.
//
// GRID.json (SweepGrid, sweep_grid.h):
//   {"command": ["train", "--task", "number", "--out", "{run}/train"],  // {run}: the run's dir
//    "grid": {"--rotary-dim": [0, 16], "--rope-theta": [1e4, 1e6]},      // every combination
//    "seeds": [0, 1, 2],                                                 // each adds --seed S
//    "resume": {"when": "{run}/train/train.json",                        // a partial run...
//               "command": ["train", "--resume", "{run}/train"]},        // ...continues so
//    "result": "{run}/train/summary.json",                               // what collect reads
//    "slurm": {"cpus_per_task": 2, "mem": "4G", "time": "02:00:00", "partition": "",
//              "account": "", "concurrency": 4, "extra": ["--mail-type=END"]}}
// Seeds are distinct non-negative integers, and the seed is given in "seeds" only. Each slurm
// field has a fixed format and range (cpus_per_task 1..4096; mem a size like 4G or 500M;
// time [D-]HH:MM:SS or whole minutes; partition and account [A-Za-z0-9_.-]; concurrency
// 1..100000; extra sbatch long options --name[=VALUE] of [A-Za-z0-9_.,:=@/+%-]), so no grid
// value can end a #SBATCH line; the paths in the scripts are quoted, and a sweep directory
// with a control character, quote, backslash or % is refused.
// DIR: manifest.json (every run: index, values, dir, command, resume, result), sweep.sbatch
// (array 0..N-1 % concurrency; task i runs `posbias sweep run DIR --index i`), run-local.sh,
// logs/run-I.log, and runs/I/ with the run's own files and its state: started.json (each
// attempt), done.json or failed.json. A run is idempotent: done → skipped, started and its
// resume file present → resumed, otherwise started afresh.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/cluster/sweep_grid.h"

namespace posbias {

struct SweepRun {
  int index = 0;
  std::map<std::string, std::string> values;  // grid option (and --seed) → value
  std::filesystem::path dir;
  std::vector<std::string> command, resume_command;  // posbias arguments
  std::filesystem::path resume_when, result;         // empty: none
};

struct SweepPlan {
  SweepGrid grid;                 // the GRID.json it came from
  std::vector<std::string> axes;  // grid options in order, then --seed when seeds are given
  std::vector<SweepRun> runs;
};

// The posbias command GRID.json runs (its 'command' list's first word); std::invalid_argument
// for an empty list.
std::string sweep_command(const SweepGrid& grid);

// Expands GRID.json (read by sweep_grid_from_json, which refuses an unknown or mistyped field;
// options checked against `known_options`, the command's --help options) into the runs with
// directories under `dir`. Throws std::invalid_argument (one line) naming an unknown option, an
// empty list or grid axis, a bad seed or --seed outside "seeds", a slurm field out of its format
// or range, or a directory the Slurm script cannot name.
SweepPlan expand_sweep(const SweepGrid& grid, const std::filesystem::path& dir,
                       const std::vector<std::string>& known_options);

// The options `posbias COMMAND --help` lists ("--out", ...); std::invalid_argument when
// COMMAND is not a posbias command.
std::vector<std::string> command_options(const std::string& command);

// Writes DIR/manifest.json, DIR/sweep.sbatch and DIR/run-local.sh. Planning again with the same
// grid rewrites the same files (a resumable sweep); a different grid over an existing manifest
// is refused.
void write_sweep(const SweepPlan& plan, const std::filesystem::path& dir);
SweepPlan read_sweep(const std::filesystem::path& dir);  // std::runtime_error if unreadable

enum class RunState { kPending, kStarted, kDone, kFailed };
const char* to_string(RunState state);
RunState parse_run_state(const std::string& name);  // pending | started | done | failed
RunState run_state(const SweepRun& run);

// Runs manifest entry `index` once (skips a done run, resumes a started one) and returns its
// exit code. Logs go to this process's stdout/stderr.
int run_sweep_entry(const std::filesystem::path& dir, int index);

// sweep_status (each run's state) and collect_sweep (the done runs' results) are in
// sweep_record.h, beside the records they return.

}  // namespace posbias
