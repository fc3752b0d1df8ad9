// `heads`'s result, as the file holds it: one field table for the writer (heads_command.cc, and
// the ranks' checkpoints gathered by rank 0) and the reader (`seeds`, hop_seed_files.cc). Files of
// earlier builds lack at_init, qk_scale, attention, the label threshold, its sensitivity and the
// score intervals: those fields are optional. The causal tests' results (ablation, patching) are
// causal_record.h's records.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/core/field_table.h"
#include "posbias/mech/causal_record.h"
#include "posbias/mech/head_score.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

// The scores of every head at one checkpoint.
struct CheckpointHeads {
  std::optional<std::int64_t> step;  // none for a Hugging Face checkpoint
  std::string file;
  std::vector<HeadScore> heads;  // layer-major, 0-based layers
};
const std::vector<FieldRow<CheckpointHeads>>& checkpoint_heads_fields();

// What was scored: a run, or a Hugging Face config and weights (and the tokens file).
struct HeadsSource {
  std::optional<std::string> run, config, weights, tokens, text;
};

// "L3.h0" of the last checkpoint's heads with each pure label.
struct FinalHeads {
  std::vector<std::string> positional, symbolic, reflexive;
};

// Pure heads counted at one checkpoint.
struct PureCounts {
  std::optional<std::int64_t> step;
  int positional = 0, symbolic = 0, reflexive = 0;
};

// The labels at one purity threshold.
struct ThresholdLabels {
  double threshold = 0;
  FinalHeads final;
  std::vector<PureCounts> pure_counts;
};

struct HeadsRecord {
  HeadsSource source;
  std::optional<Task> task;  // a run's task
  std::int64_t length = 0, samples = 0;
  double tau = 0;
  std::optional<bool> at_init;
  std::optional<double> qk_scale;
  std::optional<AttentionPath> attention;
  std::string layer_index = "0-based";
  std::vector<CheckpointHeads> checkpoints;
  FinalHeads final;
  std::optional<double> label_threshold;
  std::optional<std::vector<ThresholdLabels>> threshold_sensitivity;
  double seconds = 0;
  std::optional<AblationRecord> ablation;
  std::optional<PatchingRecord> patching;
};
const std::vector<FieldRow<HeadsRecord>>& heads_record_fields();

nlohmann::json to_json(const HeadsRecord& record);
nlohmann::json to_json(const CheckpointHeads& checkpoint);
// Strict: an unknown or mistyped field, or missing checkpoints, throws std::invalid_argument
// naming it ("heads field 'checkpoints.0.heads.3.positional'").
HeadsRecord heads_record_from_json(const nlohmann::json& j);
CheckpointHeads checkpoint_heads_from_json(const nlohmann::json& j);

// A few lines for a person at a terminal: what was scored, how many checkpoints, and the last
// checkpoint's pure heads by label at the label threshold:
//   "number run runs/number: 7 checkpoints scored at 17 tokens, 200 samples
//    last checkpoint's pure heads (purity >= 0.9): positional L0.h0, L2.h0; symbolic none;
//    reflexive none"
std::string heads_summary(const HeadsRecord& record);

}  // namespace posbias
