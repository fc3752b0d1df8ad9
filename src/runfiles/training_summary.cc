#include "posbias/runfiles/training_summary.h"

#include <nlohmann/json.hpp>

#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<AccuracySummary>>& accuracy_summary_fields() {
  using A = AccuracySummary;
  static const std::vector<FieldRow<A>> rows = {
      required(field("crossing_0.9", &A::crossing_90,
                     "first logged step with held-out accuracy >= 0.9, by hop; null: never")),
      required(field("crossing_0.99", &A::crossing_99,
                     "first logged step with held-out accuracy >= 0.99, by hop; null: never")),
      required(field("final", &A::final_accuracy, "held-out accuracy at the last logged step")),
      required(field("final_step", &A::final_step, "the last logged step")),
  };
  return rows;
}

AccuracySummary accuracy_summary(const std::vector<MetricsRow>& rows) {
  AccuracySummary s;
  if (rows.empty()) return s;
  s.final_accuracy = rows.back().acc.value_or(std::map<std::string, double>{});
  for (const auto& [key, v] : s.final_accuracy) {
    s.crossing_90[key] = first_crossing(rows, key, 0.9);
    s.crossing_99[key] = first_crossing(rows, key, 0.99);
  }
  s.final_step = rows.back().step;
  return s;
}

const std::vector<FieldRow<DataParallelStats>>& data_parallel_stats_fields() {
  using D = DataParallelStats;
  static const std::vector<FieldRow<D>> rows = {
      field("world_size", &D::world_size, "ranks of the session that ended the run"),
      field("buckets", &D::buckets, "gradient buckets all-reduced each step"),
      field("buckets_started_in_backward", &D::buckets_started_in_backward,
            "buckets whose all-reduce started during the backward"),
      field("allreduce_wait_seconds", &D::allreduce_wait_seconds,
            "seconds spent waiting for all-reduces after the backward"),
  };
  return rows;
}

const std::vector<FieldRow<TrainingSummary>>& training_summary_fields() {
  using S = TrainingSummary;
  static const std::vector<FieldRow<S>> rows = {
      required(field("task", &S::task, "the task trained on")),
      required(field("steps", &S::steps, "optimizer steps of the run")),
      field<S, double, NanAsNull>("train_seconds", &S::train_seconds,
                                  "wall seconds of training, across resumes"),
      optional_field("config", &S::config, "the run's training config"),
      required(field<S, AccuracySummary, TableCodec<AccuracySummary, &accuracy_summary_fields>>(
          "metrics", &S::metrics, "held-out accuracy crossings and final values")),
      optional_field<S, HeldoutSplit, TableCodec<HeldoutSplit, &heldout_split_fields>>(
          "heldout", &S::heldout, "text: the whole held-out split at the end"),
      optional_field<S, DataParallelStats,
                     TableCodec<DataParallelStats, &data_parallel_stats_fields>>(
          "data_parallel", &S::data_parallel, "data-parallel runs: ranks and communication"),
  };
  return rows;
}

nlohmann::json to_json(const TrainingSummary& s) {
  return fields_to_json(training_summary_fields(), s);
}

TrainingSummary training_summary_from_json(const nlohmann::json& j) {
  return fields_from_json(training_summary_fields(), j, TrainingSummary{}, "summary field");
}

}  // namespace posbias
