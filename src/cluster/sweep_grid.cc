#include "posbias/cluster/sweep_grid.h"

#include <stdexcept>

namespace posbias {
namespace {

// A JSON string or number, kept as it is.
struct GridValueCodec {
  static constexpr const char* type = "VALUE";
  static nlohmann::json write(const GridValue& v) { return v; }
  static GridValue read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_string() && !j.is_number())
      throw std::invalid_argument(what + " must be a string or a number");
    return j;
  }
};
using GridValues = ListCodec<GridValue, GridValueCodec>;

const std::vector<FieldRow<SweepResume>>& sweep_resume_fields() {
  using R = SweepResume;
  static const std::vector<FieldRow<R>> rows = {
      required(field<R, GridValue, GridValueCodec>(
          "when", &R::when, "the file whose presence makes a run's start a resume")),
      required(field<R, std::vector<GridValue>, GridValues>("command", &R::command,
                                                            "the posbias command that resumes")),
  };
  return rows;
}

const std::vector<FieldRow<SweepSlurm>>& sweep_slurm_fields() {
  using S = SweepSlurm;
  static const std::vector<FieldRow<S>> rows = {
      optional_field("cpus_per_task", &S::cpus_per_task, "CPUs of each run, 1..4096"),
      optional_field<S, GridValue, GridValueCodec>(
          "mem", &S::mem, "memory of each run: a size such as 4G or 500M, or MB"),
      optional_field<S, GridValue, GridValueCodec>(
          "time", &S::time, "time limit of each run: [D-]HH:MM:SS, or minutes"),
      optional_field("partition", &S::partition, "the Slurm partition"),
      optional_field("account", &S::account, "the Slurm account"),
      optional_field("concurrency", &S::concurrency, "runs at a time, 1..100000"),
      optional_field("extra", &S::extra, "more sbatch long options (--name or --name=VALUE)"),
  };
  return rows;
}

template <class S>
std::string names_of(const std::vector<FieldRow<S>>& rows) {
  std::string names;
  for (const auto& row : rows) names += (names.empty() ? "" : ", ") + row.name;
  return names;
}

}  // namespace

const std::vector<FieldRow<SweepGrid>>& sweep_grid_fields() {
  using G = SweepGrid;
  using Axes = MapCodec<std::vector<GridValue>, GridValues>;
  using ResumeCodec = TableCodec<SweepResume, &sweep_resume_fields>;
  using SlurmCodec = TableCodec<SweepSlurm, &sweep_slurm_fields>;
  static const std::vector<FieldRow<G>> rows = {
      required(field<G, std::vector<GridValue>, GridValues>(
          "command", &G::command, "the posbias command and its options; {run}: a run's dir")),
      optional_field<G, std::map<std::string, std::vector<GridValue>>, Axes>(
          "grid", &G::grid, "option → its values; every combination is a run"),
      optional_field("seeds", &G::seeds, "training seeds; each adds --seed S to every run"),
      optional_field<G, SweepResume, ResumeCodec>("resume", &G::resume,
                                                  "when a run resumes, and how"),
      optional_field<G, GridValue, GridValueCodec>("result", &G::result,
                                                   "the file `sweep collect` reads"),
      optional_field<G, SweepSlurm, SlurmCodec>("slurm", &G::slurm, "the array job's options"),
  };
  return rows;
}

nlohmann::json to_json(const SweepGrid& grid) { return fields_to_json(sweep_grid_fields(), grid); }

SweepGrid sweep_grid_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("GRID.json must hold a JSON object");
  const std::string what = "GRID.json field";
  try {
    return fields_from_json(sweep_grid_fields(), j, SweepGrid{}, what);
  } catch (const std::invalid_argument& e) {
    // An unknown field: the message lists the names its object has.
    const std::string message = e.what(), unknown = "unknown " + what + " '";
    if (!message.starts_with(unknown)) throw;
    const std::string name = message.substr(unknown.size());
    const std::string known = name.starts_with("slurm.")    ? names_of(sweep_slurm_fields())
                              : name.starts_with("resume.") ? names_of(sweep_resume_fields())
                                                            : names_of(sweep_grid_fields());
    throw std::invalid_argument(message + " (known: " + known + ")");
  }
}

}  // namespace posbias
