// A file's kind told by its record's own field table: `j` is that record's when it holds every
// field the table requires. The kinds of a command's files are told apart this way, never by a
// key spelled again at the call.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// Whether `j` is an object holding every field `rows` requires (false for a table with none).
template <class S>
bool holds_required_fields(const std::vector<FieldRow<S>>& rows, const nlohmann::json& j) {
  if (!j.is_object()) return false;
  bool any = false;
  for (const FieldRow<S>& row : rows) {
    if (!row.required) continue;
    if (!j.contains(row.name)) return false;
    any = true;
  }
  return any;
}

}  // namespace posbias
