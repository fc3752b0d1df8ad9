// `birth --run RUN --inputs kv|passkey --target answer`'s result as the file holds it: one field
// table per part, for the writer (answer_influence.h's answer_influence_record, in the torch
// commands) and the strict reader (`birth --colocate`, colocation.h). A by-depth
// statistic is stats/seed_interval_record.h's, over the examples; the shares and U test are
// shares_record.h's. Files of builds before one position base lack "position_base" (their shares'
// regions are 1-based) and are moved to it on read (position_base.h).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/core/position_base.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/theory/shares_record.h"

namespace posbias {

// One depth of one checkpoint, over its examples.
struct AnswerDepthRecord {
  std::int64_t depth = 0;   // requested, percent
  double actual_depth = 0;  // of the last example at this depth
  std::int64_t examples = 0;
  double accuracy = 0;  // exact match
  SeedStatistic needle, distractor;
  double needle_to_distractor = 0;  // NaN (null): no distractors
};

struct AnswerCheckpointRecord {
  std::int64_t step = 0;
  std::string checkpoint;
  std::vector<double> profile;  // mean share per position
  double accuracy = 0;
  std::vector<AnswerDepthRecord> by_depth;
  ProfileSharesRecord profile_shares;  // flat: "shares" and "u_test"
};

struct AnswerInfluenceRecord {
  std::int64_t position_base = kPositionBase;
  std::string run;
  AnswerInputs inputs = AnswerInputs::kKv;  // whose examples
  std::string target;                       // "answer"
  std::int64_t length = 0, positions = 0;
  std::optional<std::int64_t> pairs, needles;  // kv's pairs, passkey's needles
  std::vector<int> depths;
  std::int64_t per_depth = 0;
  std::uint64_t seed = 0;
  std::vector<AnswerCheckpointRecord> checkpoints;
};
const std::vector<FieldRow<AnswerInfluenceRecord>>& answer_influence_record_fields();

nlohmann::json to_json(const AnswerInfluenceRecord& record);
// Strict: an unknown or mistyped field, or missing inputs, depths or checkpoints, throws
// std::invalid_argument naming it ("influence field 'checkpoints.0.by_depth.3.needle.mean'").
AnswerInfluenceRecord answer_influence_record_from_json(const nlohmann::json& j);

}  // namespace posbias
