// The accuracy rule (answer.h's ScoreRule) as a value of a field table (core/field_table.h),
// written and read by its name from its one name table; an unknown name is refused listing the
// names: "unknown --score 'strct' (use strict or lenient); did you mean 'strict'?"
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/llm/answer.h"

namespace posbias {

struct ScoreRuleNames {
  static std::string name(ScoreRule rule) { return to_string(rule); }
  static ScoreRule parse(const std::string& name) { return parse_score_rule(name); }
};
template <>
struct FieldCodec<ScoreRule> : EnumCodec<ScoreRule, ScoreRuleNames> {};

}  // namespace posbias
