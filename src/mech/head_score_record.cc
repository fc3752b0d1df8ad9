#include <string>

#include "posbias/core/enum_names.h"
#include "posbias/mech/head_score.h"

namespace posbias {

namespace {

constexpr EnumNames<HeadLabel, 5> kHeadLabelNames{{{HeadLabel::kReflexive, "reflexive"},
                                                   {HeadLabel::kUniform, "uniform"},
                                                   {HeadLabel::kPositional, "positional"},
                                                   {HeadLabel::kSymbolic, "symbolic"},
                                                   {HeadLabel::kMixed, "mixed"}}};

}  // namespace

std::string_view head_label_name(HeadLabel label) { return name_of(kHeadLabelNames, label); }

HeadLabel parse_head_label(const std::string& name) {
  return value_of(kHeadLabelNames, name, "head label");
}

}  // namespace posbias
