// The `posbias birth` command line of a BirthSpec, from its field table (birth_spec.h) through
// core/flag_text.h's fields_to_flags: what a report's "commands by hand" prints and what `theory
// design` writes for each operator birth can build, so that no command spells birth's flags by
// hand.
#pragma once

#include <string>

namespace posbias {

struct BirthSpec;

// The flags that make `posbias birth` build `spec` from the defaults ("--arch qwen2 --layers 4
// --d-model 64 --heads 4 --kv-heads 2 --length 64 --seeds 4"): each field whose value differs
// from BirthSpec{}'s, in the table's order; "" when none does.
std::string birth_flags(const BirthSpec& spec);
// The flags that make `from` into `spec` on a command line that already builds `from`: each
// field whose value differs from `from`'s, in the table's order.
std::string birth_flags(const BirthSpec& spec, const BirthSpec& from);

}  // namespace posbias
