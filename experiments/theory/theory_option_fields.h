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
// Not in the tables (their flags are registered by hand): the files a command reads or writes
// (--profile, the runs, --out, --summary, --json, --csv, --plot, --plot-sweep) and --paths,
// whose help `birth` shares; compare's --labels, which takes its values space- or
// comma-separated; and design's knob lists, parsed into the grid once the depth is known (a
// ramp spells one α per layer). `theory shares` (SharesOptions) has no table: it takes files only.
#pragma once

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

}  // namespace posbias
