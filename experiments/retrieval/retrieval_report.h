// The retrieval section of the `reproduce` report: each configuration of the preset trained on kv
// (`train --task kv`) for every seed, evaluated by depth × length (`eval`), summarised over seeds
// (`seeds --eval`: the mean heatmap, accuracy against depth, effective lengths, the U verdict),
// its influence measured at the last checkpoint on eval's own inputs (`birth --inputs kv`) and
// set beside the accuracy (`birth --colocate`). One row per configuration in the section's table,
// the commands that do the same by hand, and what the preset can and cannot show.
// Files: DIR/retrieval/CONFIG/seedK (the run, resumed if a previous reproduce was killed),
// seedK-eval.{json,csv}, seedK-influence.{json,csv}, seeds.{json,csv} with the figures
// seeds_heatmap and seeds_depth, colocation.json, and the section's own figures
// accuracy_by_depth (a panel per length) and colocation_by_depth (accuracy and influence share).
#pragma once

#include <filesystem>

#include "experiments/retrieval/presets.h"
#include "posbias/core/report.h"

namespace posbias {

ReportSection retrieval_report_section(const std::filesystem::path& dir,
                                       const RetrievalPreset& preset);

}  // namespace posbias
