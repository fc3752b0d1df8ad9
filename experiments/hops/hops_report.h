// The hops section of the `reproduce` report: a Number and a Letter run at the preset's scale,
// their learning curves, crossing steps and length generalization with the seen_jumps and decoy
// controls. Runs live in DIR/hops/<task>/ and resume if a previous reproduce was killed; the
// trained runs are returned to the sections that build on them (mech, llm).
#pragma once

#include <filesystem>
#include <vector>

#include "experiments/hops/eval_command.h"
#include "experiments/hops/presets.h"
#include "posbias/core/report.h"

namespace posbias {

// One trained hop run.
struct HopsRun {
  Task task = Task::kNumber;
  std::filesystem::path run_dir;
};

struct HopsSection {
  ReportSection section;
  std::vector<HopsRun> runs;  // Number, then Letter
};

HopsSection hops_report_section(const std::filesystem::path& dir, const HopsPreset& preset);

}  // namespace posbias
