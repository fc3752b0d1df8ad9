// One training seed's hop result files, as `posbias seeds` reads them (hop_seeds.h): the run's
// summary.json from `posbias train`, and its `eval --run`, `heads --run` and `discrepancy
// --run` results. The files may hold anything: each parse_hop_* takes the file's JSON and its
// name and throws std::runtime_error "'FILE': ..." naming the bad field (with where it sits,
// "metrics.final"), for a missing field, a wrong type, or a value out of range. Values a file
// has none of are NaN. Hops are keyed 1, 2, ... and kAllHops ("all", every hop), which sorts
// last; lengths by the input length in tokens.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/mech/head_score.h"
#include "posbias/mech/trained_discrepancy.h"
#include "posbias/runfiles/seed_runs.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

inline constexpr int kAllHops = std::numeric_limits<int>::max();
std::string hop_name(int hop);  // "1", ..., "all"

using HopValues = std::map<int, double>;                // hop → value
using LengthValues = std::map<std::int64_t, double>;    // length → value
using LengthTable = std::map<std::int64_t, HopValues>;  // length → hop → value

// summary.json, read through its field table (runfiles/training_summary.h): the crossings and
// final accuracy by hop.
struct HopSummaryFile {
  Task task = Task::kNumber;                           // a hop task: number or letter
  HopValues crossing_90, crossing_99, final_accuracy;  // crossings NaN where never reached
  double train_seconds = NAN;                          // "train_seconds", when the file has it
  RunConfig run;  // the run's config ("config"), its seed included
};
HopSummaryFile parse_hop_summary(const nlohmann::json& j, const std::string& source);

// metrics.jsonl (`posbias train`): one MetricsRow a line (runfiles/metrics.h, read strictly
// through its field table); each row with "acc" gives the held-out accuracy per hop at its
// "step" (rows without "acc" are skipped). Steps increase. A line that is not such a row is an
// error naming its line number.
struct HopMetricsFile {
  std::vector<std::int64_t> steps;  // increasing, at least one
  std::vector<HopValues> accuracy;  // [step]
};
HopMetricsFile parse_hop_metrics(const std::string& text, const std::string& source);
// The file, read within kMaxSeedFileBytes.
HopMetricsFile read_hop_metrics(const std::string& path);

// eval --run: "accuracy" and "chance" per length and hop, and the task's control
// (controls.seen_jumps for Number, controls.decoy for Letter). Files written before eval
// logged chance levels have none: chance tables are then empty.
struct HopEvalFile {
  Task task = Task::kNumber;
  std::optional<Variant> control;  // the task's control; none when the file has none
  LengthTable accuracy, chance, control_accuracy, control_chance;
  LengthValues decoy_rate;  // Letter's control: how often the decoy's target is picked
  RunConfig run;            // the run it evaluated ("run")
};
HopEvalFile parse_hop_eval(const nlohmann::json& j, const std::string& source);

// heads --run: every checkpoint's scores and label per head.
struct HopHeadRead {
  double positional = 0, symbolic = 0;
  HeadLabel label = HeadLabel::kMixed;
};
// One threshold of threshold_sensitivity: the pure heads of the last checkpoint.
struct HopThresholdLabels {
  double threshold = 0;                           // in (0, 1]
  std::vector<std::string> positional, symbolic;  // heads of HopHeadsFile::heads
};
struct HopHeadsFile {
  Task task = Task::kNumber;
  std::vector<std::string> heads;              // "L0.h0" (0-based), the same at every checkpoint
  std::vector<std::int64_t> steps;             // increasing
  std::vector<std::vector<HopHeadRead>> at;    // [checkpoint][head]
  std::vector<HopThresholdLabels> thresholds;  // increasing; empty in files written before it
  RunConfig run;                               // the run it scored ("source"."run")
};
HopHeadsFile parse_hop_heads(const nlohmann::json& j, const std::string& source);

// A key head's role: the auto rule's most positional or most symbolic head, or a head given
// with --heads (kChosen, `chosen` its name).
struct HopRole {
  KeyHeadKind kind = KeyHeadKind::kChosen;
  std::string chosen;  // "L3.h0" when kChosen, else empty
  bool operator==(const HopRole&) const = default;
};
// Its key in the seeds summary's "roles": positional | symbolic | "L3.h0".
std::string hop_role_key(const HopRole& role);
// Its name in figures, the docs' name: "most positional head" | "most symbolic head" | "L3.h0".
std::string hop_role_title(const HopRole& role);

// discrepancy --run: the key heads' median gaps per length, their fitted exponents, and the
// model's accuracy per length.
struct HopKeyHead {
  HopRole role;
  std::string head;                     // "L3.h0"
  LengthValues median, correct_median;  // NaN where no example
  bool has_correct = false;             // the file has correct_points
  double exponent = NAN, on_chain_exponent = NAN;
};
struct HopDiscrepancyFile {
  Task task = Task::kNumber;
  Variant variant = Variant::kStandard;  // standard in files written before it was logged
  std::int64_t train_length = 0;         // 0 when the file does not say
  LengthValues accuracy;
  // The auto rule keeps one entry when its two picks are one head: that head then stands in
  // both roles here.
  std::vector<HopKeyHead> roles;
  RunConfig run;  // the run it measured ("run")
};
HopDiscrepancyFile parse_hop_discrepancy(const nlohmann::json& j, const std::string& source);

}  // namespace posbias
