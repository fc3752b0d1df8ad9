// The options of the `posbias theory` commands as field tables (core/field_table.h), one per
// options struct: `posbias theory`'s flags with their help, type and parsing come from them
// (apps/posbias/cli_theory.cpp), and so do the options' JSON writer and strict reader.
// Each row's from_flag parses the flag's text as the command line always has (an integer's
// range, a seed, "last" for the query, --alibi's heads:N) and gives the field's JSON value.
//
// α and the sink share of `posbias theory` (TheoryNumbers) are written as the engine that reads
// them has them: numbers for the float engine, strings of rationals ("1/3") for --exact's. Their
// flag's text means either, so from_flag keeps it as {"text": TEXT}, which the reader reads by
// the engine the options' `exact` chooses (--exact, a flag, is set before any value is read).
//
// compare's --labels is a list flag: its values space- or comma-separated, or the flag repeated.
// design's knob lists have a table of their own (DesignGridFlags): they stay text until the depth
// is known (a ramp spells one α per layer), and parse_design_grid reads them into the grid.
//
// Not in the tables (their flags are registered by hand): the files a command reads or writes
// (--profile, the runs, --out, --summary, --json, --csv, --plot, --plot-sweep) and --paths,
// whose help `birth` shares. `theory shares` (SharesOptions) has no table: it takes files only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/theory/compare_command.h"
#include "experiments/theory/design_command.h"
#include "experiments/theory/fit_command.h"
#include "experiments/theory/theory_command.h"
#include "posbias/core/field_table.h"

namespace posbias {

// In the order each command's --help lists them.
const std::vector<FieldRow<TheoryOptions>>& theory_option_fields();
const std::vector<FieldRow<FitOptions>>& fit_option_fields();
const std::vector<FieldRow<CompareOptions>>& compare_option_fields();
const std::vector<FieldRow<DesignOptions>>& design_option_fields();  // without the grid

// `theory design`'s knob lists as typed (--windows, --alibis, --sinks, --null-sinks, --alphas and
// --ramps), with their defaults.
struct DesignGridFlags {
  std::string windows = "0,16,32,64";
  std::string alibis = "none,0.01,0.05,heads:4";
  std::string sinks = "0,0.05,0.1,0.2";
  std::string null_sinks = "none,0,2,4";
  std::string alphas = "0.25,0.5,0.75";
  std::string ramps = "0.25:0.75,0.75:0.25";
};
const std::vector<FieldRow<DesignGridFlags>>& design_grid_flag_fields();
// The lists as the library's grid, `layers` (H) long ramps; one line naming the flag for an item
// that is not a number (or none, heads:N, a1:aH where the list takes them) or an empty list or
// item. The values' ranges are design_grid's to check.
DesignGrid parse_design_grid(const DesignGridFlags& flags, std::int64_t layers);

}  // namespace posbias
