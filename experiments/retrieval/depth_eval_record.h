// `eval --run`'s result on a kv or passkey run, as the file holds it: one field table for the
// writers (kv_eval_command.cc, passkey_eval_command.cc, from depth_eval_record) and the reader
// (`seeds`, kv_seeds.cc). Cells, means and verdicts are keyed by length ("64") and depth
// (depth_key: "50", "12.5"); depth_accuracy_of turns them back into a DepthAccuracy and checks that
// every key is there.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/arch/rope_scaling_record.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/field_table.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/stats/depth_accuracy.h"
#include "posbias/tasks/retrieval_inputs.h"

namespace posbias {

// The U verdicts as the file holds them: the rule's text, one per length, and pooled.
struct UVerdictRecord {
  std::string rule;
  std::map<std::string, UVerdict> by_length;
  UVerdict pooled;
};

struct DepthEvalRecord {
  AnswerInputs task = AnswerInputs::kKv;
  std::string run, checkpoint;
  std::int64_t step = 0;
  TrainConfig config;
  std::int64_t count = 0;  // examples per cell
  std::uint64_t seed = 0;
  std::vector<int> lengths;
  std::vector<double> depths;
  double threshold = 0;
  std::map<std::string, std::map<std::string, DepthCell>> depth_accuracy;  // length → depth
  std::map<std::string, double> mean_accuracy;                             // NaN: no example
  std::optional<int> effective_length;                                     // null: none
  UVerdictRecord u_verdict;
  std::map<std::string, AttentionPath> attention;  // by length
  double seconds = 0;
  std::string chance_rule;
  // kv: pairs in the context at each length, and how the queried pair follows the depth.
  std::optional<std::map<std::string, std::int64_t>> pairs;
  std::optional<std::string> queried_rule;
  // passkey: needles in the context, and where the queried one sits for a depth.
  std::optional<std::int64_t> needles;
  std::optional<std::string> depth_rule;
  // eval --rope-scaling: the rotations the run was evaluated with; none: its own.
  std::optional<RopeScaling> rope_scaling;
  // eval --logn-scale: the log-n scale s applied at evaluation only; none: the run's own softmax.
  std::optional<double> logn_scale;
  // eval --calibrate: the strength α of the attention calibration (model/attention_calibration.h);
  // none: plain attention.
  std::optional<double> calibrate;
};
const std::vector<FieldRow<DepthEvalRecord>>& depth_eval_record_fields();

nlohmann::json to_json(const DepthEvalRecord& record);
// Strict: an unknown or mistyped field, or a missing task, throws std::invalid_argument naming it
// ("eval field 'u_verdict.pooled.verdict'").
DepthEvalRecord depth_eval_record_from_json(const nlohmann::json& j);
// eval --checkpoints' file of several checkpoints of a kv or passkey run.
using DepthEvalSteps =
    EvalSteps<DepthEvalRecord, TableCodec<DepthEvalRecord, &depth_eval_record_fields>>;
// The cells, means and verdicts by index, checked: the inputs as check_depth_accuracy_inputs
// wants them, a cell, mean and verdict at every length and depth, and an effective length that
// is one of the lengths (std::invalid_argument naming the field).
DepthAccuracy depth_accuracy_of(const DepthEvalRecord& record);

// A cell by its indices (length, depth): a CSV row of kv and passkey eval and of their seeds.
struct DepthCellIndex {
  std::size_t length = 0, depth = 0;
};
// Every cell's indices, length-major.
std::vector<DepthCellIndex> depth_cell_indices(const DepthAccuracy& accuracy);
// A cell's columns from its field table (n, correct, accuracy, lo, hi, chance; numbers %.6g, no
// value empty), reading the cells of `accuracy`, which must outlive them.
std::vector<CsvColumn<DepthCellIndex>> depth_cell_columns(const DepthAccuracy& accuracy);

}  // namespace posbias
