// `posbias heads --ablate` / `--patch`: the causal tests of mech/ablation.h on the last
// checkpoint of a hop run, their JSON and their figure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/core/plot.h"
#include "posbias/mech/ablation.h"
#include "posbias/mech/causal_record.h"
#include "posbias/mech/heads_record.h"

namespace posbias {

struct CausalOptions {
  bool ablate = false, patch = false;
  std::vector<int> lengths{kTrainLength, 32};
  std::int64_t count = 200;  // examples per (length, hop); pairs per length for --patch
  std::uint64_t seed = 0;
  std::vector<int> layers;  // empty: every layer
  bool spans = false;       // also layers 0..k and k..last at once (AblationSpec::spans)
};

struct CausalResult {
  std::string checkpoint;
  std::int64_t step = 0;
  Task task = Task::kNumber;
  AblationSpec spec;
  std::optional<AblationResult> ablation;
  std::optional<PatchingResult> patching;
};

// std::invalid_argument (exit 2) for a run without checkpoints, a run of another task than a
// hop task, a layer outside the model, --patch on a Letter run, or lengths the model cannot read.
// The forward of the longest length is planned first (dense attention unless that passes the
// memory budget, then blockwise; `attention` forces one), as `eval` plans it.
CausalResult measure_causal(const std::string& run, const CausalOptions& options,
                            std::optional<AttentionPath> attention = std::nullopt,
                            double memory_budget_gb = 0);

// The results as the heads file holds them (without the checkpoint and its step), and the
// heads record's ablation and / or patching with them.
AblationRecord ablation_record(const AblationResult& result, const AblationSpec& spec);
PatchingRecord patching_record(const PatchingResult& result);
void add_causal_results(const CausalResult& result, HeadsRecord& heads);

// Drawn from the results as the heads file holds them (the measuring run converts its own).
// Rows: the unablated model, each ablated layer, the listed layers at once, the spans; columns:
// hop × length; cells: accuracy.
Figure ablation_figure(const AblationRecord& record, Task task);
// Moved (to the corrupted answer) and kept fractions against the patched layer, per length.
Figure patching_figure(const PatchingRecord& record);

}  // namespace posbias
