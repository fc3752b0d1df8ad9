// The mitigations section of the `reproduce` report (docs/mitigations.md): every remedy against
// its baseline, paired by seed, at birth (birth_remedies.h: null sink, BOS sink, inverse design)
// and on kv (kv_remedies.h: the trained remedies and the inference-time ones on the baseline
// runs). One table, remedy × measurement, each cell the mean paired effect with its 95% Student-t
// interval over seeds and the docs' verdict, and a sentence per row saying what it measured; two
// figures of the effects (at birth; exact match at the middle depth on kv).
// Files: DIR/mitigations/birth/ (birth and theory design results), DIR/mitigations/kv/ARM/
// (runs, evals, influence), summary.json (every row's per-seed differences, intervals and
// verdicts), and the figures birth_effects and kv_effects.
#pragma once

#include <filesystem>

#include "experiments/mitigations/presets.h"
#include "posbias/core/report.h"

namespace posbias {

ReportSection mitigations_report_section(const std::filesystem::path& dir,
                                         const MitigationsPreset& preset);

}  // namespace posbias
