#include "experiments/mitigations/paired_effect.h"

#include <fmt/format.h>

#include <cmath>

#include "posbias/stats/paired_verdict.h"

namespace posbias {

PairedEffect paired_effect(std::vector<double> per_seed, LessBias less_bias,
                           const std::string& unlearned, bool judged) {
  PairedEffect e;
  e.per_seed = std::move(per_seed);
  e.interval = seed_interval(e.per_seed);
  e.less_bias = less_bias;
  e.judged = judged;
  if (!judged) return e;
  std::vector<std::string> reasons;
  if (e.interval.n < kVerdictSeeds)
    reasons.push_back(fmt::format("{} seed{} (the rule needs {})", e.interval.n,
                                  e.interval.n == 1 ? "" : "s", kVerdictSeeds));
  if (!unlearned.empty()) reasons.push_back(unlearned);
  if (!reasons.empty()) {
    e.no_verdict = "no verdict: " + reasons.front() + (reasons.size() > 1 ? ", " + reasons[1] : "");
    return e;
  }
  // paired_verdict reads larger as less bias: a smaller-is-better effect is read negated.
  SeedInterval i = e.interval;
  if (less_bias == LessBias::kSmaller) i = {-i.mean, -i.high, -i.low, i.n};
  e.verdict = paired_verdict(i);
  return e;
}

std::string effect_cell(const PairedEffect& e, int decimals) {
  const SeedInterval& i = e.interval;
  if (i.n == 0) return "not measured";
  if (i.n == 1) return fmt::format("{:+.{}f} (one seed)", i.mean, decimals);
  const std::string number = fmt::format("{:+.{}f} [{:+.{}f}, {:+.{}f}]", i.mean, decimals, i.low,
                                         decimals, i.high, decimals);
  if (!e.judged) return number + " (reported, not judged)";
  return number + ", " + (e.verdict.empty() ? e.no_verdict : e.verdict);
}

}  // namespace posbias
