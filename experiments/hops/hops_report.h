// The hop-task section of the `reproduce` report: a Number and a Letter run (short by
// default, the shipped training defaults with --full), their learning curves, crossing steps
// and length generalization with the seen_jumps and decoy controls. Runs live in DIR/hop/ and
// resume if a previous reproduce was killed.
#pragma once

#include <filesystem>

#include "posbias/core/report.h"

namespace posbias {

ReportSection hop_report_section(const std::filesystem::path& dir, bool full);

}  // namespace posbias
