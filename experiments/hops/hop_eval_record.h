// `eval --run`'s result on a hop run, as the file holds it: one field table for the writer
// (eval_command.cc) and the reader (`seeds`, hop_seed_files.cc). Lengths and hops are the
// file's keys ("17"; "1".."4", "all"); the reader checks what they may be.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/arch/rope_scaling_record.h"
#include "posbias/core/field_table.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

using HopRow = std::map<std::string, double>;           // hop → value
using HopRowsByLength = std::map<std::string, HopRow>;  // length → hop → value

// A control variant's inputs at every length: seen_jumps (Number) or decoy (Letter).
struct HopEvalControl {
  HopRowsByLength accuracy;
  std::optional<HopRowsByLength> chance;  // files of earlier builds: none
  // Letter's decoy: how often the decoy chain's target is answered, by length.
  std::optional<std::map<std::string, double>> decoy_rate;
};
const std::vector<FieldRow<HopEvalControl>>& hop_eval_control_fields();

struct HopEvalRecord {
  Task task = Task::kNumber;  // a hop task: number or letter
  std::string run, checkpoint;
  std::int64_t step = 0, count_per_hop = 0;
  std::uint64_t seed = 0;
  std::vector<std::int64_t> lengths;
  HopRowsByLength accuracy;
  std::optional<HopRowsByLength> chance;                          // earlier builds: none
  std::optional<std::map<std::string, AttentionPath>> attention;  // by length; earlier: none
  std::optional<std::map<std::string, HopEvalControl>> controls;  // variant name → its inputs
  std::optional<RopeScaling> rope_scaling;  // eval --rope-scaling; none: the run's own rotations
  std::optional<double> logn_scale;         // eval --logn-scale; none: the run's own softmax
  double seconds = 0;
};
const std::vector<FieldRow<HopEvalRecord>>& hop_eval_record_fields();
nlohmann::json to_json(const HopEvalRecord& r);
// Strict: an unknown or mistyped field, or a missing task or accuracy, throws
// std::invalid_argument naming it ("eval field 'controls.decoy.accuracy'").
HopEvalRecord hop_eval_record_from_json(const nlohmann::json& j);
// eval --checkpoints' file of several checkpoints of a hop run.
using HopEvalSteps = EvalSteps<HopEvalRecord, TableCodec<HopEvalRecord, &hop_eval_record_fields>>;

// A few lines for a person at a terminal: the run and step, then per length the all-hop
// accuracy with the chance level, and each control's:
//   "letter run runs/letter, step 5000, 256 examples per hop and length
//    all hops, by length (chance): 17: 1.000 (0.133), 850: 0.996 (0.131)
//    decoy control: 17: 0.992 (0.131), 850: 0.980 (0.130)"
std::string hop_eval_summary(const HopEvalRecord& r);

}  // namespace posbias
