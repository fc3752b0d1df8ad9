// `posbias heads`: positional and symbolic scores of every head (mech/head_scores.h), for
// each checkpoint of a hop training run, or for a Hugging Face checkpoint on a token file.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/mech/ablation_command.h"
#include "experiments/mech/heads_options.h"
#include "posbias/arch/attention_path.h"
#include "posbias/core/plot.h"
#include "posbias/dist/process_group.h"
#include "posbias/mech/head_scores.h"
#include "posbias/mech/heads_record.h"
#include "posbias/runfiles/checkpoint_selection.h"

namespace posbias {

struct HeadsResult {
  // The source: a run, or config + weights (+ tokens or text).
  std::string run, config, weights, tokens, text;
  std::optional<Task> task;  // the run's task; none for a Hugging Face model
  std::int64_t length = 0, samples = 0;
  double tau = 0;
  bool at_init = false;                             // the run's initialization, not its checkpoints
  double qk_scale = 1;                              // query and key projections scaled (the null)
  AttentionPath attention = AttentionPath::kDense;  // the path the plan chose
  std::vector<CheckpointHeads> checkpoints;         // in training order
  double seconds = 0;
  std::optional<CausalResult> causal;  // --ablate / --patch on the last checkpoint

  // "L3" (or "L3.h1" when with_head) of the last checkpoint's heads with that label at the
  // purity threshold.
  std::vector<std::string> final_heads(HeadLabel label, bool with_head = true,
                                       double threshold = kPureThreshold) const;
};

// With a process group a run's checkpoints are split over its ranks (checkpoint i on rank
// i mod size) and gathered: every rank returns the one-process result.
HeadsResult measure_heads(const HeadsOptions& options, ProcessGroup* group = nullptr);

// The purity thresholds whose labels the JSON shows beside the default's.
inline constexpr double kLabelThresholds[] = {0.8, 0.85, 0.9, 0.95};

// The result as its file holds it (heads_record.h).
// The file's record (heads_record.h), and its JSON.
HeadsRecord heads_record(const HeadsResult& result);
nlohmann::json to_json(const HeadsResult& result);

// Positional and symbolic heatmaps: rows = layer (and head), columns = checkpoint step.
Figure heads_figure(const std::vector<CheckpointHeads>& checkpoints, const std::string& title);
// The continuous scores against training step, one line per layer (and head) with its 95%
// interval over the samples, and the purity threshold drawn: the labels' view.
Figure head_scores_over_training_figure(const std::vector<CheckpointHeads>& checkpoints,
                                        const std::string& title);

// Every figure of a result as its file holds it: STEM (the heatmaps), STEM_scores (two
// checkpoints or more), STEM_ablation and STEM_patching (when measured). The measuring run
// draws through it (heads_record(result)), and so does `heads --redraw`.
void render_heads_figures(const HeadsRecord& record, const std::string& plot);
// `heads --redraw FILE --plot STEM`: a stored heads --json result's figures drawn again from
// the file alone, measuring nothing. A file that is not one is refused in one line
// (std::invalid_argument naming the file and the field).
void redraw_heads(const std::string& file, const std::string& plot);

// measure_heads (sharded when this process is one of data-parallel ranks) and the causal tests
// asked for, then, on rank 0, the JSON to options.json (stdout when empty) and the figures to
// options.plot.
HeadsResult run_heads(const HeadsOptions& options);

}  // namespace posbias
