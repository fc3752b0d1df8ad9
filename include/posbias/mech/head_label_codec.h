// A head's label as a value of a field table (core/field_table.h): records hold the HeadLabel and
// the file holds its name from the one name table (head_score.h); the strict reader refuses a
// name that is not a label, naming the field and listing the labels:
//   "heads field 'checkpoints.0.heads.0.label': unknown head label 'posit' (use reflexive, ...)"
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/mech/head_score.h"

namespace posbias {

struct HeadLabelNames {
  static std::string name(HeadLabel l) { return std::string(head_label_name(l)); }
  static HeadLabel parse(const std::string& s) { return parse_head_label(s); }
};

template <>
struct FieldCodec<HeadLabel> : EnumCodec<HeadLabel, HeadLabelNames> {};

}  // namespace posbias
