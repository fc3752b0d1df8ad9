// The empirical discrepancy of a trained hop model: for its key heads (the most positional
// and the most symbolic head that `heads` finds, or heads the user names), the query's top
// attention logit minus the second against input length, next to the model's accuracy at
// each length. This ties the constructions' theory to the length-generalization curve.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/core/plot.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/head_score.h"
#include "posbias/stats/power_law_fit.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

struct TrainedDiscrepancyOptions {
  std::string run, checkpoint;  // checkpoint empty = the run's latest
  std::vector<HeadRef> heads;   // empty: the most positional and the most symbolic head
  std::vector<int> lengths{17, 32, 64, 128, 256, 512, 850};
  std::int64_t count = 100;  // examples per length
  std::uint64_t seed = 1;
  std::int64_t samples = 100;  // head-score samples for auto
  // The inputs: standard, or (Number) seen_jumps, whose jump integers stay within those training
  // showed, so a longer input holds no token the model never trained on.
  Variant variant = Variant::kStandard;
  // Attention path at each length (nullopt: dense unless its plan passes the budget) and the
  // memory budget in GB (0: what the machine has available); memory_plan.h's plan_attention.
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
};

// The gap's distribution over the examples of one length (NaN statistics when n = 0).
struct GapPoint {
  int length = 0;
  double median = 0, mean = 0, min = 0, p10 = 0, p90 = 0;
  std::int64_t n = 0;  // examples
};

// The role a key head was chosen for: the most positional or most symbolic head (the auto
// rule), or a head the user chose (--heads).
enum class KeyHeadKind { kPositional, kSymbolic, kChosen };
std::string_view key_head_kind_name(KeyHeadKind kind);  // positional | symbolic | chosen
KeyHeadKind parse_key_head_kind(const std::string& name);

// A key head: the role it was chosen for and its gaps against length.
struct KeyHeadGaps {
  int layer = 0, head = 0;  // 0-based
  KeyHeadKind kind = KeyHeadKind::kChosen;
  HeadLabel label = HeadLabel::kMixed;  // head_label of its scores
  double positional = NAN, symbolic = NAN;
  std::vector<GapPoint> points;  // in `lengths` order, every example
  // The same over the examples whose top key (the head's argmax at the query) is one of the
  // positions the look-ups visit (the chain), and the fraction of examples where it is: a
  // gap to a wrong key says nothing about how sharply the head finds the right one.
  std::vector<GapPoint> on_chain_points;
  std::vector<double> top_key_on_chain;
  // The examples the model answered correctly.
  std::vector<GapPoint> correct_points;
  // Power laws of the median gap against length, fitted on the lengths beyond training (every
  // example, and the on-chain ones).
  PowerLawFit exponent, on_chain_exponent;
};

struct TrainedDiscrepancyResult {
  std::string run;
  Task task = Task::kNumber;
  Variant variant = Variant::kStandard;
  int train_length = 0;  // the exponents are fitted on lengths above it
  std::int64_t step = 0;
  std::vector<int> lengths;
  std::int64_t count = 0;
  std::vector<double> accuracy;  // per length
  std::vector<KeyHeadGaps> heads;
};

TrainedDiscrepancyResult measure_trained_discrepancy(const TrainedDiscrepancyOptions& options);

// Log-log discrepancy against length per key head, accuracy on the right-hand axis.
Figure trained_discrepancy_figure(const TrainedDiscrepancyResult& result);

}  // namespace posbias
