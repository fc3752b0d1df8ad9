// `posbias heads`'s options, with one field table (heads_option_fields) for its inputs and
// measurement: `posbias heads`'s flags with their help, type, default and parsing come from it
// (apps/posbias). Each row's from_flag parses the flag's text as the command line always has.
//
// Not in the table (their flags are registered by hand, or not flags at all): the memory plan
// (--attention, --memory-budget), the outputs (--json, --plot) and the ranks, which the command
// line reads from the torchrun variables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/mech/ablation_command.h"
#include "posbias/arch/attention_path.h"
#include "posbias/core/field_table.h"
#include "posbias/dist/rank_env.h"
#include "posbias/runfiles/checkpoint_selection.h"

namespace posbias {

struct HeadsOptions {
  std::string run;                  // RUN_DIR from `posbias train`
  CheckpointSelection checkpoints;  // all, last or listed steps
  // Instead of a run: a Hugging Face config.json + model.safetensors, measured on the token
  // rows of `tokens`, or of `text` encoded by the checkpoint's tokenizer (beside config, or
  // `tokenizer`), cut to `length` when given, or on random ids of `length` tokens.
  std::string config, weights, tokens, text, tokenizer;
  // 0: the run's training length / the first token row's / the shortest text line's / 128
  std::int64_t length = 0;
  std::int64_t samples = 100;
  std::uint64_t seed = 0;
  double tau = 1e-4;
  // The scores' null: the run's model as training starts (its seed's initialization) instead
  // of its checkpoints, and / or every layer's query and key projections scaled by qk_scale.
  bool at_init = false;
  double qk_scale = 1;
  std::optional<AttentionPath> attention;  // none: dense unless it passes the memory budget
  double memory_budget_gb = 0;             // 0: what the machine has available
  // Data-parallel ranks: this process's slot (nullopt: one process), which the command line
  // reads from the torchrun variables (rank_env_from_environment); a run's checkpoints are split
  // over the ranks. The library reads no environment. Seconds a rank waits for the others.
  std::optional<RankEnv> ranks;
  std::int64_t rank_timeout = 300;
  std::string json;  // empty = stdout
  std::string plot;  // figure stem: layers × checkpoints heatmaps, and STEM_scores: the scores
                     // against step with intervals (STEM_ablation, STEM_patching with causal)
  // --ablate / --patch: the causal tests on the run's last checkpoint (one process).
  CausalOptions causal;
};

// In the order `posbias heads --help` lists them (the causal tests' fields as --causal-lengths,
// --causal-count, --layers and the flags --ablate, --patch, --spans).
const std::vector<FieldRow<HeadsOptions>>& heads_option_fields();

}  // namespace posbias
