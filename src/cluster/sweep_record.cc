#include "posbias/cluster/sweep_record.h"

#include <algorithm>
#include <filesystem>

#include "posbias/core/flag_rows.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

struct RunStateNames {
  static std::string name(RunState s) { return to_string(s); }
  static RunState parse(const std::string& s) { return parse_run_state(s); }
};

// A path is written as its text ("" for none).
struct PathCodec {
  static constexpr const char* type = "PATH";
  static nlohmann::json write(const fs::path& p) { return p.string(); }
  static fs::path read(const nlohmann::json& j, const std::string& what) {
    return FieldCodec<std::string>::read(j, what);
  }
};

const std::vector<FieldRow<SweepRun>>& sweep_run_fields() {
  using R = SweepRun;
  static const std::vector<FieldRow<R>> rows = {
      required(field("index", &R::index, "the run's number, 0..N−1")),
      required(field("values", &R::values, "grid option (and --seed) → its value in this run")),
      required(field<R, fs::path, PathCodec>("dir", &R::dir, "the run's directory")),
      required(field("command", &R::command, "posbias arguments of a fresh start")),
      required(field("resume_command", &R::resume_command, "posbias arguments of a resume")),
      required(field<R, fs::path, PathCodec>("resume_when", &R::resume_when,
                                             "the file whose presence makes a start a resume")),
      required(field<R, fs::path, PathCodec>("result", &R::result, "the file collect reads")),
  };
  return rows;
}

const std::vector<FieldRow<SweepPlan>>& sweep_plan_fields() {
  using P = SweepPlan;
  using RunCodec = ListCodec<SweepRun, TableCodec<SweepRun, &sweep_run_fields>>;
  static const std::vector<FieldRow<P>> rows = {
      required(field("grid", &P::grid, "the GRID.json the sweep was planned from")),
      required(field("axes", &P::axes, "grid options in order, then --seed")),
      required(field<P, std::vector<SweepRun>, RunCodec>("runs", &P::runs, "every run")),
  };
  return rows;
}

const std::vector<FieldRow<SweepManifest>>& sweep_manifest_fields() {
  using M = SweepManifest;
  static const std::vector<FieldRow<M>> rows = [] {
    std::vector<FieldRow<M>> r = {
        required(field("version", &M::version, "posbias version that planned the sweep")),
        required(field("posbias", &M::posbias, "the executable the scripts run")),
    };
    for (auto& row : member_fields(&M::plan, sweep_plan_fields())) r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<SweepAttempt>>& sweep_attempt_fields() {
  using A = SweepAttempt;
  static const std::vector<FieldRow<A>> rows = {
      required(field("time", &A::time, "when the attempt started (UTC)")),
      required(field("host", &A::host, "the machine it ran on")),
      required(field("resumed", &A::resumed, "the run's resume command ran")),
      required(field("slurm_job", &A::slurm_job, "SLURM_JOB_ID, empty outside Slurm")),
  };
  return rows;
}

const std::vector<FieldRow<SweepStarted>>& sweep_started_fields() {
  using S = SweepStarted;
  using AttemptCodec = ListCodec<SweepAttempt, TableCodec<SweepAttempt, &sweep_attempt_fields>>;
  static const std::vector<FieldRow<S>> rows = {
      required(field<S, std::vector<SweepAttempt>, AttemptCodec>("attempts", &S::attempts,
                                                                 "every attempt, in order")),
  };
  return rows;
}

const std::vector<FieldRow<SweepRunEnd>>& sweep_run_end_fields() {
  using E = SweepRunEnd;
  static const std::vector<FieldRow<E>> rows = {
      required(field("code", &E::code, "the run's exit code")),
      required(field("seconds", &E::seconds, "wall time of the last attempt")),
      required(field("time", &E::time, "when it ended (UTC)")),
      required(field("attempts", &E::attempts, "attempts so far, this one included")),
  };
  return rows;
}

const std::vector<FieldRow<SweepRunStatus>>& sweep_run_status_fields() {
  using R = SweepRunStatus;
  static const std::vector<FieldRow<R>> rows = {
      required(field("index", &R::index, "the run's number")),
      required(field<R, RunState, EnumCodec<RunState, RunStateNames>>(
          "state", &R::state, "pending, started, done or failed")),
      required(field("values", &R::values, "grid option (and --seed) → its value")),
      required(field("dir", &R::dir, "the run's directory")),
      optional_field("code", &R::code, "exit code (done or failed runs)"),
      optional_field("seconds", &R::seconds, "wall time of the last attempt (done or failed)"),
      optional_field("attempts", &R::attempts, "attempts so far (done or failed)"),
  };
  return rows;
}

const std::vector<FieldRow<SweepStatus>>& sweep_status_fields() {
  using S = SweepStatus;
  using RowCodec = ListCodec<SweepRunStatus, TableCodec<SweepRunStatus, &sweep_run_status_fields>>;
  static const std::vector<FieldRow<S>> rows = {
      required(field("runs", &S::runs, "runs in the sweep")),
      required(field("done", &S::done, "runs done")),
      required(field("started", &S::started, "runs started and not ended (running or killed)")),
      required(field("pending", &S::pending, "runs never started")),
      required(field("failed", &S::failed, "runs whose last attempt exited non-zero")),
      required(field<S, std::vector<SweepRunStatus>, RowCodec>("states", &S::states,
                                                               "every run's state")),
  };
  return rows;
}

// A number of a run's result file, kept as written (an integer stays one).
struct NumberCodec {
  static constexpr const char* type = "NUMBER";
  static nlohmann::json write(const nlohmann::json& v) { return v; }
  static nlohmann::json read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_number()) throw std::invalid_argument(what + " must be a number");
    return j;
  }
};

const std::vector<FieldRow<SweepCollectedRun>>& sweep_collected_run_fields() {
  using R = SweepCollectedRun;
  using Numbers = MapCodec<nlohmann::json, NumberCodec>;
  static const std::vector<FieldRow<R>> rows = {
      required(field("index", &R::index, "the run's number")),
      required(field("values", &R::values, "grid option (and --seed) → its value")),
      required(field<R, std::map<std::string, nlohmann::json>, Numbers>(
          "result", &R::result, "the result file's numbers by dotted path")),
  };
  return rows;
}

const std::vector<FieldRow<SweepMetricSummary>>& sweep_metric_summary_fields() {
  using M = SweepMetricSummary;
  static const std::vector<FieldRow<M>> rows = {
      required(field<M, double, NanAsNull>("mean", &M::mean, "the mean over the seeds")),
      required(field<M, std::vector<double>, NanAsNullList>(
          "ci", &M::ci, "the 95% Student-t interval: low, high (null below two seeds)")),
      required(field("n", &M::n, "the seeds with a value")),
  };
  return rows;
}

// A grid point: "values", and beside it each metric's summary under the metric's name (the
// names are the collection's "metrics", which sweep_collection_from_json checks).
struct PointSummaryCodec {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const SweepPointSummary& p) {
    nlohmann::json j = {{"values", p.values}};
    for (const auto& [metric, m] : p.metrics)
      j[metric] = fields_to_json(sweep_metric_summary_fields(), m);
    return j;
  }
  static SweepPointSummary read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_object()) throw std::invalid_argument(what + " must be an object");
    if (!j.contains("values")) throw std::invalid_argument("missing " + field_what(what, "values"));
    SweepPointSummary p;
    p.values = FieldCodec<std::map<std::string, std::string>>::read(j.at("values"),
                                                                    field_what(what, "values"));
    for (const auto& [key, value] : j.items()) {
      if (key == "values") continue;
      p.metrics[key] = fields_from_json(sweep_metric_summary_fields(), value, SweepMetricSummary{},
                                        field_what(what, key));
    }
    return p;
  }
};

const std::vector<FieldRow<SweepCollection>>& sweep_collection_fields() {
  using C = SweepCollection;
  using RunCodec =
      ListCodec<SweepCollectedRun, TableCodec<SweepCollectedRun, &sweep_collected_run_fields>>;
  using PointCodec = ListCodec<SweepPointSummary, PointSummaryCodec>;
  static const std::vector<FieldRow<C>> rows = {
      required(field<C, std::vector<SweepCollectedRun>, RunCodec>("runs", &C::runs,
                                                                  "every collected run")),
      required(field("collected", &C::collected, "runs collected (done, with a result file)")),
      required(field("not_done", &C::not_done, "runs not done or without a result file")),
      required(field("axes", &C::axes, "grid options in order, then --seed")),
      required(field("metrics", &C::metrics, "the --metric paths summarized")),
      required(field<C, std::vector<SweepPointSummary>, PointCodec>(
          "summary", &C::summary, "per grid point, each metric's seed mean and interval")),
  };
  return rows;
}

// A key of a grid point in `j` (a collection) that is neither "values" nor one of its metrics
// is refused as unknown.
void require_known_metrics(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("summary") || !j.at("summary").is_array()) return;
  std::vector<std::string> metrics;
  if (j.contains("metrics"))
    metrics =
        FieldCodec<std::vector<std::string>>::read(j.at("metrics"), field_what(what, "metrics"));
  const nlohmann::json& summary = j.at("summary");
  for (std::size_t i = 0; i < summary.size(); ++i) {
    if (!summary[i].is_object()) continue;
    for (const auto& [key, value] : summary[i].items()) {
      if (key == "values" || std::find(metrics.begin(), metrics.end(), key) != metrics.end())
        continue;
      throw std::invalid_argument(
          "unknown " + field_what(what, "summary." + std::to_string(i) + "." + key.substr(0, 40)) +
          " (not one of 'metrics')");
    }
  }
}

}  // namespace

nlohmann::json to_json(const SweepManifest& m) {
  return fields_to_json(sweep_manifest_fields(), m);
}
SweepManifest sweep_manifest_from_json(const nlohmann::json& j) {
  return fields_from_json(sweep_manifest_fields(), j, SweepManifest{}, "manifest field");
}
nlohmann::json to_json(const SweepStarted& s) { return fields_to_json(sweep_started_fields(), s); }
SweepStarted sweep_started_from_json(const nlohmann::json& j) {
  return fields_from_json(sweep_started_fields(), j, SweepStarted{}, "started.json field");
}
nlohmann::json to_json(const SweepRunEnd& e) { return fields_to_json(sweep_run_end_fields(), e); }
SweepRunEnd sweep_run_end_from_json(const nlohmann::json& j) {
  return fields_from_json(sweep_run_end_fields(), j, SweepRunEnd{}, "run end field");
}
nlohmann::json to_json(const SweepStatus& s) { return fields_to_json(sweep_status_fields(), s); }
SweepStatus sweep_status_from_json(const nlohmann::json& j) {
  return fields_from_json(sweep_status_fields(), j, SweepStatus{}, "sweep status field");
}
nlohmann::json to_json(const SweepCollection& c) {
  return fields_to_json(sweep_collection_fields(), c);
}
SweepCollection sweep_collection_from_json(const nlohmann::json& j) {
  const std::string what = "sweep collect field";
  require_known_metrics(j, what);
  return fields_from_json(sweep_collection_fields(), j, SweepCollection{}, what);
}

const std::vector<FieldRow<SweepRunOptions>>& sweep_run_option_fields() {
  static const std::vector<FieldRow<SweepRunOptions>> rows = {required(
      integer_field("index", &SweepRunOptions::index, "the run's index (SLURM_ARRAY_TASK_ID)"))};
  return rows;
}

const std::vector<FieldRow<CollectOptions>>& collect_option_fields() {
  using O = CollectOptions;
  static const std::vector<FieldRow<O>> rows = {flagged(
      field("metrics", &O::metrics,
            "a number in the result file as a dotted path (repeatable), e.g. metrics.final_loss",
            "NAME"),
      "--metric")};
  return rows;
}

}  // namespace posbias
