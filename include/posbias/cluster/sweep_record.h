// The files of a sweep directory (sweep.h) as records, one field table each, from which their
// writers and strict readers come: manifest.json (the plan: every run's values, directory and
// commands), a run's state files — started.json (one entry per attempt) and done.json or
// failed.json (how the last attempt ended) — `sweep status`'s JSON and `sweep collect`'s. A
// reader refuses an unknown or mistyped field naming it ("manifest field 'runs.3.command'").
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

// `sweep collect`'s JSON: every done run's numbers, and per grid point each metric's seed mean
// and 95% t interval.
struct SweepCollectedRun {
  int index = 0;
  std::map<std::string, std::string> values;
  std::map<std::string, nlohmann::json> result;  // the result file's numeric leaves, "a.b.c" → x
};
struct SweepMetricSummary {
  double mean = 0;         // NaN (written null) without a finite value
  std::vector<double> ci;  // the interval's low and high end; NaN (null) below two seeds
  std::int64_t n = 0;      // the seeds with a finite value
};
// A grid point: its values of every axis but --seed, and each metric's summary, written beside
// "values" under the metric's name.
struct SweepPointSummary {
  std::map<std::string, std::string> values;
  std::map<std::string, SweepMetricSummary> metrics;
};
struct SweepCollection {
  std::vector<SweepCollectedRun> runs;
  std::int64_t collected = 0;  // runs collected (done, with a result file)
  int not_done = 0;
  std::vector<std::string> axes, metrics;
  std::vector<SweepPointSummary> summary;
};
nlohmann::json to_json(const SweepCollection& collection);
// Strict: a point's key that is neither "values" nor one of "metrics" is refused by name.
SweepCollection sweep_collection_from_json(const nlohmann::json& j);

// `sweep run`'s run: its index in the sweep (SLURM_ARRAY_TASK_ID), a field table whose one row,
// required, gives `sweep run --index` its help, type and range. Not in it: the sweep directory,
// a path the command line names.
struct SweepRunOptions {
  int index = -1;
};
const std::vector<FieldRow<SweepRunOptions>>& sweep_run_option_fields();

// Every done run's result file, flattened to its numeric leaves ("a.b.c": x), with the run's
// values; with metrics, per grid point (every axis but --seed) each metric's seed mean and
// 95% t interval. Writes JSON, CSV (one row per run) and, for the first metric, a figure
// against the first axis with seed bands (json/csv/plot may be empty).
struct CollectOptions {
  std::vector<std::string> metrics;
  std::string json, csv, plot;  // outside the table
};
// The metrics as a field table: `sweep collect`'s --metric (repeatable) with its help and type
// comes from it. Not in it: the outputs, which the command line checks as it registers them.
const std::vector<FieldRow<CollectOptions>>& collect_option_fields();
SweepCollection collect_sweep(const SweepPlan& plan, const CollectOptions& options);
// A `sweep collect --json` file through its strict reader: std::invalid_argument naming the file
// and what is wrong with it, std::runtime_error when it cannot be read.
SweepCollection read_sweep_collection(const std::filesystem::path& file);
// The figure of a collection (what collect's --plot draws, and `sweep collect --redraw` from its
// JSON): the first metric's seed mean and 95% t band against the first axis but --seed (a log
// axis when its values are positive numbers spanning a factor of 10 or more), a line per value
// of the other axes. std::invalid_argument without a metric or such an axis.
void render_sweep_figure(const SweepCollection& collection, const std::filesystem::path& stem);

}  // namespace posbias
