#include "experiments/hops/hop_eval_record.h"

#include <nlohmann/json.hpp>

namespace posbias {

template <>
struct FieldCodec<HopEvalControl> : TableCodec<HopEvalControl, &hop_eval_control_fields> {};

const std::vector<FieldRow<HopEvalControl>>& hop_eval_control_fields() {
  using C = HopEvalControl;
  static const std::vector<FieldRow<C>> rows = {
      required(field("accuracy", &C::accuracy, "accuracy by length and hop")),
      optional_field("chance", &C::chance, "a uniform guess's accuracy by length and hop"),
      optional_field("decoy_rate", &C::decoy_rate,
                     "decoy: how often the decoy chain's target is answered, by length"),
  };
  return rows;
}

const std::vector<FieldRow<HopEvalRecord>>& hop_eval_record_fields() {
  using R = HopEvalRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("task", &R::task, "the run's task: number or letter")),
      field("run", &R::run, "the run folder", "PATH"),
      field("checkpoint", &R::checkpoint, "the checkpoint evaluated", "PATH"),
      field("step", &R::step, "the checkpoint's step"),
      field("count_per_hop", &R::count_per_hop, "examples per length and hop"),
      field("seed", &R::seed, "the examples' seed"),
      field("lengths", &R::lengths, "the input lengths evaluated, in tokens"),
      required(field("accuracy", &R::accuracy, "accuracy by length and hop")),
      optional_field("chance", &R::chance, "a uniform guess's accuracy by length and hop"),
      optional_field("attention", &R::attention, "the attention path at each length"),
      optional_field("controls", &R::controls, "the task's control variant: its accuracy"),
      field("seconds", &R::seconds, "wall seconds of the evaluation"),
  };
  return rows;
}

nlohmann::json to_json(const HopEvalRecord& r) {
  return fields_to_json(hop_eval_record_fields(), r);
}

HopEvalRecord hop_eval_record_from_json(const nlohmann::json& j) {
  const HopEvalRecord empty;
  return fields_from_json(hop_eval_record_fields(), j, empty, "eval field");
}

}  // namespace posbias
