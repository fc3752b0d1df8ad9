// `posbias discrepancy`: the index and retrieval constructions (mech/constructions.h) swept
// over input length beside their bounds, (with --search optimized) the best heads a search finds
// (head_search_sweep.h), or (with --run) a trained model's key heads.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "experiments/mech/construction_sweep_record.h"
#include "experiments/mech/head_search_sweep.h"
#include "posbias/core/plot.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

struct ConstructionSweep {
  Construction function = Construction::kIndex;
  double theta = NAN;  // NaN = auto: π/n for index and reflexive (n positions), 0 for retrieval
  double omega = 0.7853981633974483;  // retrieval symbol spacing, 2π/8
  std::vector<int> lengths{9, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::int64_t count = 64;  // task examples per length (1 hop)
  std::uint64_t seed = 0;
  double memory_budget_gb = 0;  // --memory-budget (0: what the machine has available)
};

// The result file is construction_sweep_record.h's.
SweepResult sweep_construction(const ConstructionSweep& sweep);

// Log-log discrepancy against n: measured points and the bound, one panel per result.
Figure construction_figure(const std::vector<SweepResult>& results);

// One command, three modes, each with its own options: the constructions swept over n, the
// head search (--search optimized), or a trained run's key heads (--run).
using DiscrepancyMode = std::variant<ConstructionSweep, HeadSearchSweep, TrainedDiscrepancyOptions>;

struct DiscrepancyOptions {
  DiscrepancyMode mode;
  std::string json, plot;  // result JSON (empty: stdout) and figure stem (empty: none)
};
// What one mode measured: its result file is construction_sweep_record.h's,
// head_search_record.h's or trained_discrepancy_record.h's.
using DiscrepancyResult =
    std::variant<SweepResult, HeadSearchSweepResult, TrainedDiscrepancyResult>;
DiscrepancyResult run_discrepancy(const DiscrepancyOptions& options);

// What a discrepancy --json file is, told by each record's field table (the fields it requires,
// core/required_fields.h): a --run result's, a head search's, else a construction sweep's (whose
// strict reader refuses any other file).
enum class DiscrepancyFile { kConstruction, kHeadSearch, kTrained };
DiscrepancyFile discrepancy_file_kind(const nlohmann::json& j);

// `discrepancy --redraw FILE --plot STEM`: the figure of a stored construction sweep or head
// search (the file --json wrote), drawn from the file alone; nothing is measured. A file of
// another kind, or with a bad field, is one line naming the file (std::runtime_error).
void redraw_discrepancy(const std::string& file, const std::string& plot);

}  // namespace posbias
