// The `posbias birth` command line of BirthOptions' model shape and measurement, from their field
// table (birth_options_fields.h): what a report's "commands by hand" prints, so that no command
// spells birth's flags by hand.
#pragma once

#include <string>

namespace posbias {

struct BirthOptions;

// The flags that make `posbias birth` build `options`' table fields again from the defaults
// ("--arch qwen2 --layers 4 --d-model 64 --heads 4 --kv-heads 2 --length 64 --seeds 4"): each
// field whose value differs from BirthOptions{}'s, in the table's order; "" when none does.
// Without the fields outside the table (--paths, --run, --json, ...).
std::string birth_flags(const BirthOptions& options);

}  // namespace posbias
