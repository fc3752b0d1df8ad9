// `posbias seeds`'s flags as the command line gives them, before seeds_mode (seeds_command.h)
// turns them into the options of one mode, with one field table (seeds_flag_fields) for its
// inputs: `posbias seeds`'s flags with their help and type come from it (apps/posbias), each a
// list of files (the birth files positional, the others repeatable).
//
// Not in the table (their flags are registered by hand): the outputs (--json, --csv, --plot).
#pragma once

#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

struct SeedsFlags {
  std::vector<std::string> birth, eval, summary, metrics, heads, discrepancy, compare;
  // Outside the table.
  std::string json, csv, plot;
};

// In the order `posbias seeds --help` lists them.
const std::vector<FieldRow<SeedsFlags>>& seeds_flag_fields();

}  // namespace posbias
