// The causal tests' results (`heads --ablate`, `--patch`; mech/ablation.h) as the heads file
// holds them: one field table each, for the writer (ablation_command.cc) and the reader
// (heads_record.h). Lengths and hop counts are keys written as text ("17", "1", ..., "all");
// intervals are Wilson 95% [low, high].
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// A value per hop count ("1".."4" and "all"), per length.
using ByHopByLength = std::map<std::string, std::map<std::string, double>>;
using IntervalsByHopByLength = std::map<std::string, std::map<std::string, std::vector<double>>>;

// One ablated row: the accuracy with its interval, and the drop from the baseline.
struct AblatedRecord {
  ByHopByLength accuracy, drop;
  IntervalsByHopByLength interval;
};
struct AblatedLayerRecord : AblatedRecord {
  int layer = 0;
};
// Every listed layer ablated at once.
struct AblatedJointRecord : AblatedRecord {
  std::vector<int> layers;
};
// Layers first..last ablated at once.
struct AblatedSpanRecord : AblatedRecord {
  int first = 0, last = 0;
};

struct AblationRecord {
  std::vector<int> lengths;
  std::int64_t count_per_hop = 0;
  std::uint64_t seed = 0;
  std::string layer_index = "0-based", rule;
  ByHopByLength baseline, chance;
  IntervalsByHopByLength baseline_interval;
  std::vector<AblatedLayerRecord> layers;
  std::optional<AblatedJointRecord> joint;
  std::optional<std::vector<AblatedSpanRecord>> spans;
  std::string checkpoint;
  std::int64_t step = 0;
};

// One patched layer: the fractions of pairs moved to the corrupted answer and kept, per length.
struct PatchedLayerRecord {
  int layer = 0;
  std::map<std::string, double> moved, kept;
};

struct PatchingRecord {
  std::vector<int> lengths;
  std::int64_t pairs = 0;
  std::string layer_index = "0-based", rule;
  std::map<std::string, double> clean_accuracy, corrupted_accuracy;  // per length
  std::vector<PatchedLayerRecord> layers;
  std::string checkpoint;
  std::int64_t step = 0;
};

const std::vector<FieldRow<AblationRecord>>& ablation_record_fields();
const std::vector<FieldRow<PatchingRecord>>& patching_record_fields();
template <>
struct FieldCodec<AblationRecord> : TableCodec<AblationRecord, &ablation_record_fields> {};
template <>
struct FieldCodec<PatchingRecord> : TableCodec<PatchingRecord, &patching_record_fields> {};

nlohmann::json to_json(const AblationRecord& record);
nlohmann::json to_json(const PatchingRecord& record);

}  // namespace posbias
