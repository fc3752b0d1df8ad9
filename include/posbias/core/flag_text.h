// A field's JSON value (core/field_table.h) as the text of its command-line flag, and the flags
// that set a struct's table fields: what a report's commands by hand print and what --help shows
// as a default, so that no command spells another's flags by hand.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// A name as a shell word (as it is when it holds only letters, digits and -_.,:, else quoted),
// a number as its shortest text that reads back the same (2, not 2.0), a list as its values
// joined by commas ("0,12.5,100"). std::invalid_argument for null, true/false and an object,
// which no flag's text gives.
std::string flag_text(const nlohmann::json& value);

// "--depths 0,50,100 --count 24 --no-controls": the flag of each of `rows`' fields whose value in
// `s` differs from its value in `defaults`, in the table's order, followed by its flag_text; a
// BOOL field's flag alone (given, it turns the default over).
template <class S>
std::string fields_to_flags(const std::vector<FieldRow<S>>& rows, const S& s, const S& defaults) {
  std::string out;
  for (const FieldRow<S>& row : rows) {
    const nlohmann::json value = row.write(s);
    if (value == row.write(defaults)) continue;
    out += (out.empty() ? "" : " ") + row.flag;
    if (row.type != "BOOL") out += " " + flag_text(value);
  }
  return out;
}

}  // namespace posbias
