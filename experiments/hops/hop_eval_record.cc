#include "experiments/hops/hop_eval_record.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "posbias/arch/arch_codecs.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/tasks/task_codecs.h"

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
      optional_field("rope_scaling", &R::rope_scaling,
                     "eval --rope-scaling: the RoPE scaling evaluated with (absent: none)"),
      optional_field("logn_scale", &R::logn_scale,
                     "eval --logn-scale: the log-n attention scale s applied at evaluation only "
                     "(absent: none)"),
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

namespace {

// "17: 1.000 (0.133), 850: 0.996 (0.131)": the all-hop value per length, chance in brackets.
std::string by_length(const std::vector<std::int64_t>& lengths, const HopRowsByLength& accuracy,
                      const std::optional<HopRowsByLength>& chance) {
  std::string out;
  for (const std::int64_t length : lengths) {
    const std::string key = std::to_string(length);
    const auto row = accuracy.find(key);
    if (row == accuracy.end() || !row->second.count(kAllHopsKey)) continue;
    out += fmt::format("{}{}: {:.3f}", out.empty() ? "" : ", ", key, row->second.at(kAllHopsKey));
    if (chance && chance->count(key) && chance->at(key).count(kAllHopsKey))
      out += fmt::format(" ({:.3f})", chance->at(key).at(kAllHopsKey));
  }
  return out;
}

}  // namespace

std::string hop_eval_summary(const HopEvalRecord& r) {
  std::string out = fmt::format("{} run {}, step {}, {} examples per hop and length\n",
                                task_name(r.task), r.run, r.step, r.count_per_hop);
  out += "all hops, by length" + std::string(r.chance ? " (chance)" : "") + ": " +
         by_length(r.lengths, r.accuracy, r.chance) + "\n";
  if (r.controls) {
    for (const auto& [variant, control] : *r.controls)
      out += variant + " control: " + by_length(r.lengths, control.accuracy, control.chance) + "\n";
  }
  return out;
}

}  // namespace posbias
