// A remedy's effect on one measurement, paired by seed (docs/mitigations.md, "Pairing, seeds and
// intervals" and "The verdict rule"): d_s = remedy_s − baseline_s per seed (for influence shares
// log10(remedy's share / baseline's)), the mean with its 95% Student-t interval over the seeds,
// and the verdict: "helps" when the interval excludes 0 on the side of less bias, "hurts" on the
// other side, "no effect" when it holds 0; no verdict below kVerdictSeeds seeds or when the
// baseline did not learn the task (the reason is kept). In the section's summary.json each effect
// is one record (paired_effect_fields: per_seed, the interval's fields as
// stats/seed_interval_record.h writes them, less_bias, judged, verdict, no_verdict).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/stats/seed_interval.h"

namespace posbias {

// The docs' rule asks for at least 3 seeds per cell before a verdict.
inline constexpr std::int64_t kVerdictSeeds = 3;

// Which side of 0 is less bias.
enum class LessBias { kLarger, kSmaller };
std::string to_string(LessBias less_bias);  // "larger" | "smaller"
LessBias parse_less_bias(const std::string& name);

struct PairedEffect {
  std::vector<double> per_seed;  // d_s, one per paired seed (NaN where a seed has none)
  SeedInterval interval;         // over the finite d_s
  LessBias less_bias = LessBias::kLarger;
  std::string verdict;  // "helps" | "hurts" | "no effect"; empty: no verdict
  // Why there is none: "no verdict: 2 seeds (the rule needs 3), the baseline did not learn kv".
  std::string no_verdict;
  bool judged = true;  // false: reported, never judged (cost)
};

// The effect of per-seed differences; `unlearned` (non-empty) withholds the verdict with that
// reason; judged = false reports the interval with no verdict (a cost on a shared machine).
PairedEffect paired_effect(std::vector<double> per_seed, LessBias less_bias,
                           const std::string& unlearned = "", bool judged = true);

// The table's cell: "0.054 [0.034, 0.074], helps" (n ≥ 2; the verdict or why there is none),
// "0.054 (one seed)" for one seed, "not measured" for none. `decimals` of every number.
std::string effect_cell(const PairedEffect& effect, int decimals = 3);

const std::vector<FieldRow<PairedEffect>>& paired_effect_fields();
nlohmann::json to_json(const PairedEffect& effect);

}  // namespace posbias
