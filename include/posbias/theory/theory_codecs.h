// The theory's enums as values of a field table (core/field_table.h), written and read by their
// names from their one name table; an unknown name is refused listing the names:
//   "unknown --paths 'quad' (use linear or quadrature); did you mean 'quadrature'?"
// PathSum (influence.h).
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/theory/influence.h"

namespace posbias {

struct PathSumNames {
  static std::string name(PathSum p) { return to_string(p); }
  static PathSum parse(const std::string& s) { return parse_path_sum(s); }
};
template <>
struct FieldCodec<PathSum> : EnumCodec<PathSum, PathSumNames> {};

}  // namespace posbias
