// The files of a sweep directory (sweep.h) as records, one field table each, from which their
// writers and strict readers come: manifest.json (the plan: every run's values, directory and
// commands), a run's state files — started.json (one entry per attempt) and done.json or
// failed.json (how the last attempt ended) — and `sweep status`'s JSON. A reader refuses an
// unknown or mistyped field naming it ("manifest field 'runs.3.command'").
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/cluster/sweep.h"
#include "posbias/core/field_table.h"

namespace posbias {

// manifest.json: the build that planned it, the grid it came from and every run.
struct SweepManifest {
  std::string version, posbias;  // the version and the executable that planned the sweep
  SweepPlan plan;
};
nlohmann::json to_json(const SweepManifest& manifest);
SweepManifest sweep_manifest_from_json(const nlohmann::json& j);

// One attempt at a run, in started.json's "attempts".
struct SweepAttempt {
  std::string time, host;
  bool resumed = false;   // the run's resume command ran (its resume file was there)
  std::string slurm_job;  // SLURM_JOB_ID, or empty outside Slurm
};
struct SweepStarted {
  std::vector<SweepAttempt> attempts;
};
nlohmann::json to_json(const SweepStarted& started);
SweepStarted sweep_started_from_json(const nlohmann::json& j);

// done.json or failed.json: how the last attempt ended.
struct SweepRunEnd {
  int code = 0;  // the run's exit code
  double seconds = 0;
  std::string time;
  std::int64_t attempts = 0;  // attempts so far, this one included
};
nlohmann::json to_json(const SweepRunEnd& end);
SweepRunEnd sweep_run_end_from_json(const nlohmann::json& j);

// `sweep status`: each run's state, and for a done or failed run how it ended.
struct SweepRunStatus {
  int index = 0;
  RunState state = RunState::kPending;
  std::map<std::string, std::string> values;
  std::string dir;
  std::optional<int> code;
  std::optional<double> seconds;
  std::optional<std::int64_t> attempts;
};
struct SweepStatus {
  int runs = 0, done = 0, started = 0, pending = 0, failed = 0;
  std::vector<SweepRunStatus> states;
};
// Every run's state now, read from its state files (std::runtime_error naming a damaged one).
SweepStatus sweep_status(const SweepPlan& plan);
nlohmann::json to_json(const SweepStatus& status);
SweepStatus sweep_status_from_json(const nlohmann::json& j);

}  // namespace posbias
