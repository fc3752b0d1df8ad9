// The positional-encoding ablation section of the `reproduce` report. Each hop task's run of
// the hops section (RoPE on `rotary_dim` of each head's dims) beside the same training with
// RoPE on every dim and with no positional encoding (NoPE), at the preset's scale and seed,
// all three evaluated at the preset's ablation lengths and put side by side with
// `seeds --compare` (hop_compare.h). Runs live in DIR/hops/ablation/<task>-<variant>/ and
// resume after a killed reproduce.
#pragma once

#include <filesystem>

#include "experiments/hops/hops_report.h"
#include "experiments/hops/presets.h"
#include "posbias/core/report.h"

namespace posbias {

ReportSection ablation_report_section(const std::filesystem::path& dir, const HopsPreset& preset,
                                      const HopsSection& hops);

}  // namespace posbias
