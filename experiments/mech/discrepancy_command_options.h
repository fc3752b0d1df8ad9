// `posbias discrepancy`'s options as its command line gives them, before the command picks its
// mode (discrepancy_command.h's DiscrepancyMode: the constructions, --search optimized, or
// --run), with one field table (discrepancy_option_fields): `posbias discrepancy`'s flags with
// their help, type, default and parsing come from it (apps/posbias). Each row's from_flag parses
// the flag's text as the command line always has. discrepancy_mode builds the one mode the
// options ask for, with that mode's own defaults where they leave a value unset.
//
// Not in the table (their flags are registered by hand): the memory plan (--attention,
// --memory-budget) and the outputs (--json, --plot, --redraw).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/mech/discrepancy_command.h"
#include "posbias/arch/attention_path.h"
#include "posbias/core/field_table.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/head_search.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

struct DiscrepancyCommandOptions {
  // The table's fields, in its order.
  Construction function = Construction::kIndex;
  std::optional<double> theta;  // unset: auto (π/n for index and reflexive, 0 for retrieval)
  double omega = ConstructionSweep{}.omega;
  std::vector<int> lengths;  // empty: the mode's
  std::int64_t count = 0;    // 0: the mode's
  std::uint64_t seed = 0;
  std::string search;  // "optimized": the head search; empty: the constructions (or --run)
  // --search: head_dim, frequencies, rope_theta, starts and steps (the rest from the fields here).
  HeadSearchOptions head_search;
  std::string run;  // a trained run: its key heads
  CheckpointSelection checkpoints = CheckpointSelection::last();
  std::vector<HeadRef> heads;  // empty: auto
  Variant variant = Variant::kStandard;
  // Outside the table.
  std::optional<AttentionPath> attention;  // nullopt: dense unless it passes the budget
  double memory_budget_gb = 0;             // 0: what the machine has available
};

// In the order `posbias discrepancy --help` lists them.
const std::vector<FieldRow<DiscrepancyCommandOptions>>& discrepancy_option_fields();

// The one mode `options` asks for: --search optimized, --run, or the constructions.
// std::invalid_argument (exit 2) for a search name other than optimized or a reflexive search;
// --run's checkpoints must select one checkpoint of the run.
DiscrepancyMode discrepancy_mode(const DiscrepancyCommandOptions& options);

}  // namespace posbias
