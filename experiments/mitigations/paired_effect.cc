#include "experiments/mitigations/paired_effect.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "posbias/core/enum_names.h"
#include "posbias/stats/paired_verdict.h"
#include "posbias/stats/seed_interval_record.h"

namespace posbias {
namespace {

constexpr EnumNames<LessBias, 2> kLessBiasNames{
    {{LessBias::kLarger, "larger"}, {LessBias::kSmaller, "smaller"}}};

}  // namespace

struct LessBiasNames {
  static std::string name(LessBias b) { return to_string(b); }
  static LessBias parse(const std::string& s) { return parse_less_bias(s); }
};

template <>
struct FieldCodec<LessBias> : EnumCodec<LessBias, LessBiasNames> {};

std::string to_string(LessBias b) { return std::string(name_of(kLessBiasNames, b)); }

LessBias parse_less_bias(const std::string& name) {
  return value_of(kLessBiasNames, name, "less_bias");
}

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

const std::vector<FieldRow<PairedEffect>>& paired_effect_fields() {
  using P = PairedEffect;
  static const std::vector<FieldRow<P>> rows = [] {
    std::vector<FieldRow<P>> r = {field<P, std::vector<double>, NanAsNullList>(
        "per_seed", &P::per_seed, "d_s per paired seed (null: the seed has none)")};
    for (auto& row : member_fields(&P::interval, seed_interval_fields())) r.push_back(row);
    r.push_back(field("less_bias", &P::less_bias, "which side of 0 is less bias"));
    r.push_back(field("judged", &P::judged, "false: reported, never judged (a cost)"));
    r.push_back(field("verdict", &P::verdict, "helps, hurts or no effect; empty: none"));
    r.push_back(field("no_verdict", &P::no_verdict, "why there is no verdict"));
    return r;
  }();
  return rows;
}

nlohmann::json to_json(const PairedEffect& e) { return fields_to_json(paired_effect_fields(), e); }

}  // namespace posbias
