// `posbias seeds`'s summaries of hop runs as the files hold them: over training seeds
// (HopSeedsResult, hop_seeds.h) and configurations side by side (HopComparison, hop_compare.h).
// One field table per part, for the writers (run_hop_seeds, write_hop_comparison) and a strict
// reader. A statistic S is stats/seed_interval_record.h's ({"mean", "low", "high", "n", "values"});
// one of whole numbers (steps, head counts) writes its values as integers. Maps are keyed by length
// ("17"), hop ("1", ..., "all"), head ("L0.h0") or role; what each part means is hop_seeds.h's.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/hops/hop_compare.h"
#include "experiments/hops/hop_seeds.h"
#include "posbias/core/field_table.h"
#include "posbias/stats/seed_interval_record.h"

namespace posbias {

// One (length, hop) cell: the statistic's fields, then chance and whether the interval is above
// it (both absent without a chance level; above_chance null without an interval).
struct HopCellRecord {
  SeedStatistic accuracy;
  std::optional<double> chance;
  std::optional<std::optional<bool>> above_chance;
};
using HopTableRecord = std::map<std::string, std::map<std::string, HopCellRecord>>;

// The first step that reached a threshold (whole numbers), and how many seeds did.
struct CrossingRecord {
  SeedStatistic step;
  std::int64_t crossed = 0;
};

struct HopTrainingRecord {
  std::vector<std::optional<std::int64_t>> training_seeds;
  std::map<std::string, CrossingRecord> crossing_90, crossing_99;  // "crossing_0.9", "_0.99"
  StatisticMap final_accuracy;
  SeedStatistic train_seconds;
};

struct HopCurvesRecord {
  std::vector<std::int64_t> steps;
  std::vector<std::string> hops;
  std::map<std::string, std::vector<SeedStatistic>> accuracy;  // hop → per step
};

struct HopControlRecord {
  Variant name = Variant::kSeenJumps;
  HopTableRecord accuracy;
  std::optional<StatisticMap> decoy_rate;
};

struct HopEvalSummaryRecord {
  std::vector<std::int64_t> lengths;
  std::vector<std::string> hops;
  HopTableRecord accuracy;
  std::optional<HopControlRecord> control;
};

struct HopHeadsStepRecord {
  std::int64_t step = 0;
  StatisticMap positional, symbolic;
};

struct HopThresholdRecord {
  double threshold = 0;
  SeedStatistic positional_heads, symbolic_heads;                       // whole numbers
  std::map<std::string, std::vector<std::optional<HeadLabel>>> labels;  // null: neither
};

struct HopHeadsSummaryRecord {
  std::string layer_index;
  std::vector<std::string> heads;
  std::vector<HopHeadsStepRecord> steps;
  std::int64_t last_step = 0;
  std::map<std::string, std::vector<HeadLabel>> labels;
  StatisticMap settled_step;  // whole numbers
  std::optional<std::vector<HopThresholdRecord>> threshold_sensitivity;
};

struct HopRoleGapsRecord {
  std::vector<std::optional<std::string>> heads;  // null: the seed has no such head
  StatisticMap median_gap;
  std::optional<StatisticMap> correct_median_gap;
  SeedStatistic exponent, on_chain_exponent;
};

struct HopDiscrepancySummaryRecord {
  Variant variant = Variant::kStandard;
  std::optional<std::int64_t> train_length;  // null: no file says
  std::vector<std::int64_t> lengths;
  StatisticMap accuracy;
  std::map<std::string, HopRoleGapsRecord> roles;
};

// The files summarized, per option (absent when not given).
struct HopSeedFilesRecord {
  std::optional<std::vector<std::string>> summary, metrics, eval, heads, discrepancy;
};

struct HopSeedsRecord {
  Task task = Task::kNumber;
  std::int64_t seeds = 0;
  std::string interval;
  HopSeedFilesRecord files;
  std::optional<HopTrainingRecord> training;
  std::optional<HopCurvesRecord> curves;
  std::optional<HopEvalSummaryRecord> eval;
  std::optional<HopHeadsSummaryRecord> heads;
  std::optional<HopDiscrepancySummaryRecord> discrepancy;
  std::optional<std::int64_t> unchecked_configurations;
};

struct HopConfigurationRecord {
  std::string label;
  std::int64_t seeds = 0;
  std::vector<std::string> files;
  HopTableRecord accuracy;
};

struct HopComparisonRecord {
  Task task = Task::kNumber;
  std::string interval;
  std::vector<std::int64_t> lengths;
  std::vector<HopConfigurationRecord> configurations;
};

const std::vector<FieldRow<HopSeedsRecord>>& hop_seeds_record_fields();
const std::vector<FieldRow<HopComparisonRecord>>& hop_comparison_record_fields();

HopTableRecord hop_table_record(const HopTable& table);
HopSeedsRecord hop_seeds_record(const HopSeedsResult& result);
HopComparisonRecord hop_comparison_record(const HopComparison& comparison);

nlohmann::json to_json(const HopSeedsRecord& record);
nlohmann::json to_json(const HopComparisonRecord& record);
// Strict: an unknown or mistyped field, or a missing task or seed count, throws
// std::invalid_argument naming it ("seeds field 'eval.accuracy.17.all.chance'").
HopSeedsRecord hop_seeds_record_from_json(const nlohmann::json& j);
HopComparisonRecord hop_comparison_record_from_json(const nlohmann::json& j);

}  // namespace posbias
