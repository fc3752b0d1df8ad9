// BirthOptions' model-shape and measurement fields as a field table (core/field_table.h): the
// `posbias birth` flags with their help, type and parsing come from it (apps/posbias), and so
// does a command line that builds the options again (birth_flags.h). Each row's from_flag parses
// the flag's text as the command line always has (ranges, a seed, "last" for the query) and
// gives the field's JSON value.
//
// Not in the table (their flags are registered by hand): --paths, whose help `theory` shares;
// the trained-model inputs (--config, --weights, --tokens, --text, --tokenizer, --target), the
// run (--run, --checkpoints), the memory plan (--attention, --memory-budget), the ranks
// (--rank-timeout) and the outputs (--json, --csv, --plot, --resume).
#pragma once

#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

struct BirthOptions;

// In the order `posbias birth --help` lists them.
const std::vector<FieldRow<BirthOptions>>& birth_option_fields();

}  // namespace posbias
