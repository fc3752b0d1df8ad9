// `posbias seeds --eval KV_EVAL.json...`'s summary (KvSeedsResult, kv_seeds.h) as the file
// holds it: one field table per part, for the writer (run_kv_seeds) and a strict reader. Cells,
// means and verdicts are keyed by length ("64") and depth ("50", "12.5"); a statistic is
// stats/seed_interval_record.h's. Files of earlier builds lack the task: an optional field.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/retrieval/kv_seeds.h"
#include "posbias/core/field_table.h"
#include "posbias/stats/seed_interval_record.h"

namespace posbias {

// The U verdicts over seeds: the rule's text, one per length, and pooled.
struct KvUVerdictsRecord {
  std::string rule;
  std::map<std::string, UOverSeeds> by_length;
  UOverSeeds pooled;
};

// Each seed's effective length and their median (null: none).
struct EffectiveLengthsRecord {
  std::vector<std::optional<std::int64_t>> values;
  std::optional<std::int64_t> median;
};

struct KvSeedsRecord {
  std::optional<AnswerInputs> task;
  std::vector<std::string> files;
  std::int64_t seeds = 0;
  std::vector<int> lengths;
  std::vector<double> depths;
  double threshold = 0;
  std::map<std::string, StatisticMap> depth_accuracy;  // length → depth
  StatisticMap mean_accuracy;                          // per length
  KvUVerdictsRecord u_verdict;
  EffectiveLengthsRecord effective_length;
  std::optional<std::int64_t> unchecked_configurations;
};
const std::vector<FieldRow<KvSeedsRecord>>& kv_seeds_record_fields();

KvSeedsRecord kv_seeds_record(const KvSeedsResult& result);
nlohmann::json to_json(const KvSeedsRecord& record);
// Strict: an unknown or mistyped field throws std::invalid_argument naming it ("seeds field
// 'u_verdict.pooled.verdict'").
KvSeedsRecord kv_seeds_record_from_json(const nlohmann::json& j);

}  // namespace posbias
