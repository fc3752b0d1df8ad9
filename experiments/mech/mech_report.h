// The mechanisms section of the `reproduce` report: head scores over the checkpoints of the
// hop runs (made by the hop section in DIR/hop/), the index and retrieval constructions
// against their bounds, and the key-head discrepancy of both trained models next to their
// accuracy against length.
#pragma once

#include <filesystem>

#include "posbias/core/report.h"

namespace posbias {

ReportSection mech_report_section(const std::filesystem::path& dir, bool full);

}  // namespace posbias
