// The theory section of the `reproduce` report: influence profiles for several depths and
// residual weights, the continuum limit against the discrete row, the generalized
// operators (window, ALiBi, sink), with CSV/JSON data beside each figure.
#pragma once

#include <filesystem>

#include "posbias/core/report.h"

namespace posbias {

// Writes figures and data into DIR/theory/ and returns the section that shows them.
ReportSection theory_report_section(const std::filesystem::path& dir);

}  // namespace posbias
