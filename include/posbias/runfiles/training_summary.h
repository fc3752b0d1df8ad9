// A training run's summary.json, written by `posbias train` when the run ends and read back by
// `seeds`, the report and the ablation tables: one field table for each part.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

// Learning from the held-out accuracy rows of metrics.jsonl, by accuracy key ("1".."4", "all";
// kv: "all"). Text runs log no accuracy: the maps are empty.
struct AccuracySummary {
  // The first logged step at which the key's accuracy reaches 0.9 (0.99); none when it never does.
  std::map<std::string, std::optional<std::int64_t>> crossing_90, crossing_99;
  std::map<std::string, double> final_accuracy;  // the last row's
  std::int64_t final_step = 0;                   // the last row's step
};
const std::vector<FieldRow<AccuracySummary>>& accuracy_summary_fields();
// From the rows as logged (steps increasing); empty rows give an empty summary.
AccuracySummary accuracy_summary(const std::vector<MetricsRow>& rows);

// A data-parallel session's ranks and the communication its backward did not hide.
struct DataParallelStats {
  std::int64_t world_size = 0, buckets = 0, buckets_started_in_backward = 0;
  double allreduce_wait_seconds = 0;
};
const std::vector<FieldRow<DataParallelStats>>& data_parallel_stats_fields();

struct TrainingSummary {
  Task task = Task::kNumber;  // the config's task
  std::int64_t steps = 0;
  double train_seconds = NAN;         // wall seconds of training, across resumes; older files: none
  std::optional<TrainConfig> config;  // train writes it; files of an early build: none
  AccuracySummary metrics;
  std::optional<HeldoutSplit> heldout;             // text runs
  std::optional<DataParallelStats> data_parallel;  // runs on several ranks
};
const std::vector<FieldRow<TrainingSummary>>& training_summary_fields();
nlohmann::json to_json(const TrainingSummary& s);
// Strict: an unknown or mistyped field, or a missing task, steps or metrics, throws
// std::invalid_argument naming it ("summary field 'metrics.final'").
TrainingSummary training_summary_from_json(const nlohmann::json& j);

}  // namespace posbias
