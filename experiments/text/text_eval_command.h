// `posbias eval --run RUN` on a text run: held-out bits per byte over the whole held-out split,
// the loss per position, and the unigram and bigram baselines on the same targets, for the
// run's latest checkpoint (or those --checkpoints selects): a TextEvalResult
// (runfiles/heldout_split.h). The figure is the loss per position; over several checkpoints, one
// curve per checkpoint, and eval --checkpoints' file (posbias/runfiles/eval_steps.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/attention_path.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

struct TextEvalOptions {
  std::string run;
  CheckpointSelection checkpoints = CheckpointSelection::last();
  std::string json, plot;  // json empty = stdout
  // Attention path (nullopt: dense unless its plan passes the budget) and the memory budget in
  // GB (0: what the machine has available); memory_plan.h's plan_attention.
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
};

// True when RUN_DIR/train.json names the text task (false when it has none).
bool is_text_run(const std::string& run_dir);
// Each checkpoint's held-out evaluation, in the order given; the corpus is read and the memory
// planned once for all of them.
std::vector<TextEvalResult> measure_text_eval(const TextEvalOptions& options,
                                              const std::vector<RunCheckpoint>& checkpoints);
Figure text_eval_figure(const TextEvalResult& result);
// Several checkpoints of one run: the loss per position, one curve per checkpoint coloured by its
// step.
Figure text_eval_steps_figure(const std::vector<TextEvalResult>& results);
void run_text_eval(const TextEvalOptions& options);

}  // namespace posbias
