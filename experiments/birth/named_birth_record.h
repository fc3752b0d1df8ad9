// One entry of `reproduce`'s birth/birth_summary.json: a preset run's birth record
// (birth_record.h) with the run's name, written flat from one field table.
#pragma once

#include <string>
#include <vector>

#include "experiments/birth/birth_record.h"
#include "posbias/core/field_table.h"

namespace posbias {

struct NamedBirthRecord : BirthRecord {
  std::string name;  // the run's name in the preset ("GPT-2 style", ...)
};

inline const std::vector<FieldRow<NamedBirthRecord>>& named_birth_record_fields() {
  static const std::vector<FieldRow<NamedBirthRecord>> rows = [] {
    std::vector<FieldRow<NamedBirthRecord>> r =
        inherited_fields<NamedBirthRecord>(birth_record_fields());
    r.push_back(field("name", &NamedBirthRecord::name, "the run's name in the preset"));
    return r;
  }();
  return rows;
}

}  // namespace posbias
