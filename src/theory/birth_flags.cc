#include "posbias/theory/birth_flags.h"

#include "posbias/core/flag_text.h"
#include "posbias/theory/birth_spec.h"

namespace posbias {

std::string birth_flags(const BirthSpec& spec, const BirthSpec& from) {
  return fields_to_flags(birth_spec_fields(), spec, from);
}

std::string birth_flags(const BirthSpec& spec) { return birth_flags(spec, BirthSpec{}); }

}  // namespace posbias
