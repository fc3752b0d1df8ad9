// The mech section of the `reproduce` report: head scores over the checkpoints of the hops
// section's runs, the index and retrieval constructions against their bounds, and the key-head
// discrepancy of both trained models next to their accuracy against length. Output in DIR/mech/.
#pragma once

#include <filesystem>

#include "experiments/hops/hops_report.h"
#include "experiments/mech/presets.h"
#include "posbias/core/report.h"

namespace posbias {

ReportSection mech_report_section(const std::filesystem::path& dir, const MechPreset& preset,
                                  const HopsSection& hops);

}  // namespace posbias
