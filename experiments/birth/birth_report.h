// The "influence at birth" section of the `reproduce` report: measured Jacobian profiles of
// a GPT-2-style and a Qwen2-style model at init (RoPE and no RoPE), fitted against theory.
#pragma once

#include <filesystem>

#include "posbias/core/report.h"

namespace posbias {

ReportSection birth_report_section(const std::filesystem::path& dir);

}  // namespace posbias
