#include "experiments/mech/construction_sweep_record.h"

#include <nlohmann/json.hpp>

#include "posbias/core/field_table.h"
#include "posbias/mech/mech_codecs.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {
namespace {

const std::vector<FieldRow<SweepPoint>>& sweep_point_fields() {
  using P = SweepPoint;
  static const std::vector<FieldRow<P>> rows = {
      required(field("length", &P::length, "input length n, in tokens")),
      required(field("theta", &P::theta, "the angle per position used at this n")),
      required(field("discrepancy_min", &P::discrepancy_min,
                     "the gap between the top two logits, smallest over the inputs")),
      required(field("discrepancy_mean", &P::discrepancy_mean, "the gap's mean over the inputs")),
      required(field("accuracy", &P::accuracy, "fraction of inputs whose top key is the target")),
      required(field("bound", &P::bound, "the construction's bound at (n, θ, ω)")),
  };
  return rows;
}

const std::vector<FieldRow<SweepSlope>>& sweep_slope_fields() {
  using S = SweepSlope;
  static const std::vector<FieldRow<S>> rows = [] {
    FieldRow<S> from = required(field("from", &S::from, "the shortest length fitted"));
    from.write = [](const S& s) {  // an integer in files of earlier builds (no points)
      return s.points ? nlohmann::json(s.from) : nlohmann::json(std::llround(s.from));
    };
    return std::vector<FieldRow<S>>{
        required(field<S, double, NanAsNull>("value", &S::value, "the exponent (null: no fit)")),
        optional_field<S, std::vector<double>, NanAsNullList>(
            "ci", &S::ci, "its 95% interval [low, high] (null: fewer than 3 points)"),
        from,
        required(field("to", &S::to, "the longest length that may be fitted")),
        optional_field("points", &S::points, "lengths fitted"),
    };
  }();
  return rows;
}

// θ as the file names it; read after `function` (an object's keys are read in name order).
FieldRow<SweepResult> theta_field() {
  using R = SweepResult;
  FieldRow<R> row = required(field("theta", &R::theta,
                                   "the angle per position: pi/n or 0 "
                                   "when it follows n, else the fixed angle"));
  row.write = [](const R& r) {
    return r.auto_theta ? nlohmann::json(auto_theta_name(r.function)) : nlohmann::json(r.theta);
  };
  row.read = [](const nlohmann::json& j, R& r, const std::string& what) {
    const std::string name = auto_theta_name(r.function);
    r.auto_theta = j.is_string();
    if (r.auto_theta && j.get<std::string>() != name) {
      throw std::invalid_argument(field_what(what, "theta") + " must be a number or " + name +
                                  " (the " + ConstructionNames::name(r.function) +
                                  " construction's θ at each n)");
    }
    r.theta = r.auto_theta ? NAN : FieldCodec<double>::read(j, field_what(what, "theta"));
  };
  return row;
}

}  // namespace

template <>
struct FieldCodec<SweepPoint> : TableCodec<SweepPoint, &sweep_point_fields> {};
template <>
struct FieldCodec<std::vector<SweepPoint>> : ListCodec<SweepPoint> {};
template <>
struct FieldCodec<SweepSlope> : TableCodec<SweepSlope, &sweep_slope_fields> {};

namespace {

const std::vector<FieldRow<SweepResult>>& sweep_result_fields() {
  using R = SweepResult;
  static const std::vector<FieldRow<R>> rows = {
      required(field("function", &R::function, "the construction: index, retrieval or reflexive")),
      required(field("task", &R::task, "the task whose inputs it ran on")),
      theta_field(),
      required(field("omega", &R::omega, "retrieval's symbol spacing ω")),
      required(field("count", &R::count, "task inputs per length")),
      required(field("seed", &R::seed, "the inputs' seed")),
      required(field("points", &R::points, "one point per length, in the sweep's order")),
      required(field("slope", &R::slope, "the power law of discrepancy_min against n")),
  };
  return rows;
}

}  // namespace

SweepSlope sweep_slope(const PowerLawFit& fit) {
  return {fit.exponent, std::vector<double>{fit.low, fit.high}, SweepResult::kSlopeFrom,
          SweepResult::kSlopeTo, fit.points};
}

std::string auto_theta_name(Construction function) {
  return function == Construction::kRetrieval ? "0" : "pi/n";
}

nlohmann::json to_json(const SweepResult& r) { return fields_to_json(sweep_result_fields(), r); }

SweepResult sweep_result_from_json(const nlohmann::json& j) {
  SweepResult r = fields_from_json(sweep_result_fields(), j, SweepResult{}, "discrepancy field");
  if (r.task != construction_task(r.function)) {
    throw std::invalid_argument("discrepancy field 'task' must be " +
                                TaskNames::name(construction_task(r.function)) + " for the " +
                                ConstructionNames::name(r.function) + " construction");
  }
  return r;
}

}  // namespace posbias
