// The mechanism experiments' enums as values of a field table (core/field_table.h), written and
// read by their names from their one name table each; an unknown name is refused listing the
// names: "unknown --function 'indx' (use index, retrieval or reflexive); did you mean 'index'?"
// Construction (constructions.h) and SearchFrequencies (head_search.h).
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/head_search.h"

namespace posbias {

struct ConstructionNames {
  static std::string name(Construction c) { return std::string(construction_name(c)); }
  static Construction parse(const std::string& s) { return parse_construction(s); }
};
struct SearchFrequenciesNames {
  static std::string name(SearchFrequencies f) { return std::string(search_frequencies_name(f)); }
  static SearchFrequencies parse(const std::string& s) { return parse_search_frequencies(s); }
};

template <>
struct FieldCodec<Construction> : EnumCodec<Construction, ConstructionNames> {};
template <>
struct FieldCodec<SearchFrequencies> : EnumCodec<SearchFrequencies, SearchFrequenciesNames> {};

}  // namespace posbias
