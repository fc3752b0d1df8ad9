// `posbias birth --run RUN --inputs kv|passkey --target answer`: the influence of every input
// position on the loss of a retrieval run's answer, checkpoint by checkpoint, on eval's own
// inputs spread over depths (docs/retrieval.md, "Influence on the same inputs").
//
// Inputs: for each depth d (percent) of --depths, --seeds examples at length L: example e at
// depth d is `eval`'s example e of cell (L, d) for the same seed, so the influence is measured on
// the first --seeds inputs of each cell `eval --seed` scores; the same inputs at every
// checkpoint. The task's part (kv_answer_inputs.h, passkey_answer_inputs.h) turns its examples
// into AnswerInputs: the ids the model reads, the answer's ids, and the spans of the queried
// needle (kv: the queried pair) and of the distractors.
// Influence of position t (0-based, position_base.h) on example b: g_bt = ‖∂ℓ_b/∂x_bt‖₂, ℓ_b the
// mean cross-entropy of the answer's ids (each predicted by the logits one position before it,
// with the ids before it read by teacher forcing), x_bt the token embedding at t (learned positions
// are added after it, so it is also the gradient of the summed input). Computed in float64.
// Each example's g_b· is normalised to unit sum (its shares); the profile is the mean of the
// examples' shares (still unit sum), so a confidently right example, whose loss gradient is tiny,
// weighs as much as a wrong one.
// Shapes: ids [B, W], answers [B, T], gradient norms [B, W] float64.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/train/answer_influence_record.h"

namespace posbias {

struct AnswerInfluenceOptions {
  AnswerInputs inputs = AnswerInputs::kKv;
  std::string run;
  CheckpointSelection checkpoints;  // all, last or listed steps
  std::int64_t length = 0;          // L in tokens; 0 = the run's training length
  std::vector<int> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  int per_depth = 8;                                                       // examples per depth
  std::uint64_t seed = 1;  // the inputs' seed: eval's default, so the same examples
  std::string json, csv, plot;
};

struct TokenSpan {
  int begin = 0, end = 0;  // [begin, end) in an input's ids, 0-based
};

// One example as the measurement reads it.
struct AnswerInput {
  std::vector<std::int64_t> ids;     // the W ids the model reads
  std::vector<std::int64_t> answer;  // T ids; answer[t] is predicted by the logits at from + t
  int from = 0;                      // the same for every input of one measurement
  TokenSpan needle;                  // the queried needle (kv: the queried pair)
  std::vector<TokenSpan> distractors;
  double depth = 0;  // the queried needle's actual depth, percent
};

// A task's inputs for one measurement, depth-major (all of depths[0], then depths[1], ...).
struct AnswerInputSet {
  std::int64_t length = 0;  // L
  int needles = 0;          // per example (kv: pairs)
  std::vector<AnswerInput> inputs;
  // Exact match per input (the task's own rule, as `eval` scores it), the model in eval mode.
  std::function<std::vector<bool>(Transformer&)> exact_matches;
};

// g_bj for inputs of one width and one `from`, [B, W] float64 (the model in eval mode).
torch::Tensor answer_gradient_norms(Transformer& model, const std::vector<AnswerInput>& inputs);

// The influence at one depth: means over its examples of the queried needle's share (its span's
// sum) and of one distractor's share (the mean over the distractors; none with one needle).
struct AnswerDepthInfluence {
  int depth = 0;                   // requested, percent
  double actual_depth = 0;         // of the last example at this depth
  std::vector<double> needle;      // per example
  std::vector<double> distractor;  // per example with distractors, mean over them
  double needle_mean() const;
  double distractor_mean() const;  // NaN without distractors
};

struct AnswerInfluenceCheckpoint {
  std::int64_t step = 0;
  std::string path;
  std::vector<std::vector<double>> example_profiles;  // [examples][W], unit sum each
  std::vector<double> profile;                        // mean over examples
  std::vector<AnswerDepthInfluence> depths;
  std::vector<bool> exact;  // exact match per example
};

struct AnswerInfluenceResult {
  AnswerInfluenceOptions options;
  std::int64_t length = 0;
  int needles = 0;
  std::vector<AnswerInput> inputs;
  std::vector<AnswerInfluenceCheckpoint> checkpoints;  // by step
};

// Summaries of one checkpoint's per-example unit-sum profiles over `inputs` (depth-major).
AnswerInfluenceCheckpoint summarize_answer_influence(
    const std::vector<AnswerInput>& inputs, const std::vector<int>& depths,
    std::vector<std::vector<double>> example_profiles);

AnswerInfluenceResult measure_answer_influence(const AnswerInfluenceOptions& options);
// The result as its file holds it (answer_influence_record.h).
AnswerInfluenceRecord answer_influence_record(const AnswerInfluenceResult& result);
// STEM_depths: the needle's mean share by depth through checkpoints, a heatmap, from the result
// as its file holds it (the measuring run and `birth --redraw` draw it so).
void render_answer_influence_figure(const AnswerInfluenceRecord& record, const std::string& stem);
// Measures, writes --json (stdout when empty; the file is answer_influence_record.h's), --csv
// (step, depth, accuracy, needle, distractor) and the figure STEM_depths (needle share by depth
// through checkpoints, a heatmap).
AnswerInfluenceResult run_answer_influence(const AnswerInfluenceOptions& options);

}  // namespace posbias
