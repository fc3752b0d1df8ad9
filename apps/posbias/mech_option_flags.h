// `posbias heads`' and `posbias discrepancy`'s flags of their options' field tables
// (experiments/mech/heads_options.h, discrepancy_command_options.h), registered as ParsedOptions
// (field_flags.h): each flag's text is parsed by its row when the action runs, and --help shows
// the default the options hold: -L beside heads' --length, as `theory` spells it, and "auto" for
// discrepancy's unset --theta and --heads. How the flags need and exclude each other is the
// command's (cli_mech.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "experiments/mech/discrepancy_command_options.h"
#include "experiments/mech/heads_options.h"
#include "field_flags.h"

namespace posbias::cli {

using RowFlagAdded = std::function<void(const std::string& row, CLI::Option* option)>;

inline void add_heads_option_flags(CLI::App* cmd, ParsedOptions* parsed, HeadsOptions* options,
                                   const RowFlagAdded& after) {
  add_field_flags(cmd, parsed, heads_option_fields(), HeadsOptions{}, options, "heads option",
                  {{{"length", "-L"}}, {}}, after);
}

inline void add_discrepancy_option_flags(CLI::App* cmd, ParsedOptions* parsed,
                                         DiscrepancyCommandOptions* options,
                                         const RowFlagAdded& after) {
  add_field_flags(cmd, parsed, discrepancy_option_fields(), DiscrepancyCommandOptions{}, options,
                  "discrepancy option", {{}, {{"theta", "auto"}, {"heads", "auto"}}}, after);
}

}  // namespace posbias::cli
