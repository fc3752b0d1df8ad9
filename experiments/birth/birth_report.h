// The "influence at birth" section of the `reproduce` report: measured Jacobian profiles of
// a GPT-2-style and a Qwen2-style model at init (RoPE and no RoPE), fitted against theory, at
// the preset's scale.
#pragma once

#include <filesystem>

#include "experiments/birth/presets.h"
#include "posbias/core/report.h"

namespace posbias {

// Writes into DIR/birth/.
ReportSection birth_report_section(const std::filesystem::path& dir, const BirthPreset& preset);

}  // namespace posbias
