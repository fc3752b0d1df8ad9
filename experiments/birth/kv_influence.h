// `posbias birth --run RUN --inputs kv --target answer`: the influence of every input position on
// the loss of a kv run's answer, checkpoint by checkpoint, on eval inputs spread over depths.
//
// Inputs: for each depth d (percent) of --depths, --seeds examples of L tokens with the most
// pairs that fit (n = kv_pairs(L)) and the queried pair at i = round(d·(n − 1)/100): example e
// at depth d is `eval`'s example e of cell (L, d) for the same seed (kv_depth_example), so the
// influence is measured on the first --seeds inputs of each cell `eval --seed` scores. The same
// inputs at every checkpoint.
// Influence of position j (1-based, j = 1..L + 2: the example, then the value's first two tokens
// read by teacher forcing) on example b: g_bj = ‖∂ℓ_b/∂x_bj‖₂, ℓ_b the mean cross-entropy of the
// value's 3 tokens (kv_loss's terms for b), x_bj the token embedding at j (learned positions are
// added after it, so it is also the gradient of the summed input). Computed in float64.
// Each example's g_b· is normalised to unit sum (its shares); the profile is the mean of the
// examples' shares (still unit sum), so a confidently right example, whose loss gradient is tiny,
// weighs as much as a wrong one.
// Shapes: ids [B, L + 2], gradient norms [B, L + 2] float64.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/tasks/kv_task.h"
#include "posbias/theory/profile_shares.h"
#include "posbias/train/kv_batch.h"

namespace posbias {

struct KvInfluenceOptions {
  std::string run, checkpoints = "all";  // a kv run; all, last or a comma list of steps
  std::int64_t length = 0;               // L in tokens; 0 = the run's training length
  std::vector<int> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  int per_depth = 8;                                                       // examples per depth
  std::uint64_t seed = 1;  // the inputs' seed: eval's default, so the same examples
  std::string json, csv, plot;
};

// The inputs described above, depth-major (all of depths[0], then depths[1], ...).
std::vector<KvExample> kv_influence_inputs(int length, const std::vector<int>& depths,
                                           int per_depth, std::uint64_t seed);

// g_bj for every example and position, [B, L + 2] float64 (the model in eval mode).
torch::Tensor kv_answer_gradient_norms(Transformer& model, const KvBatch& batch);

// The influence at one depth: means over its examples of the queried pair's share (its 6 tokens'
// sum) and of one distractor pair's share (the mean over the other n − 1 pairs).
struct KvDepthInfluence {
  int depth = 0;                   // requested, percent
  double actual_depth = 0;         // kv_depth(i, n) of the queried index used
  std::vector<double> needle;      // per example
  std::vector<double> distractor;  // per example, mean over the distractor pairs
  double needle_mean() const;
  double distractor_mean() const;
};

struct KvInfluenceCheckpoint {
  std::int64_t step = 0;
  std::string path;
  std::vector<std::vector<double>> example_profiles;  // [examples][L + 2], unit sum each
  std::vector<double> profile;                        // mean over examples
  std::vector<KvDepthInfluence> depths;
  std::vector<bool> exact;  // exact match per example (kv_exact_matches)
};

struct KvInfluenceResult {
  KvInfluenceOptions options;
  std::int64_t length = 0;
  int pairs = 0;
  std::vector<KvExample> inputs;
  std::vector<KvInfluenceCheckpoint> checkpoints;  // by step
};

// Summaries of one checkpoint's per-example unit-sum profiles over `inputs` (depth-major, as
// kv_influence_inputs orders them).
KvInfluenceCheckpoint summarize_kv_influence(const std::vector<KvExample>& inputs,
                                             const std::vector<int>& depths,
                                             std::vector<std::vector<double>> example_profiles);

KvInfluenceResult measure_kv_influence(const KvInfluenceOptions& options);
// {"run", "inputs": "kv", "target": "answer", "length", "pairs", "depths", "per_depth", "seed",
//  "checkpoints": [{"step", "checkpoint", "profile", "accuracy", "by_depth": [{"depth",
//  "actual_depth", "examples", "accuracy", "needle" {mean, low, high, n, values},
//  "distractor" {...}, "needle_to_distractor"}], "shares", "u_test"}]}.
nlohmann::json to_json(const KvInfluenceResult& result);
// Measures, writes --json (stdout when empty), --csv (step, depth, needle, distractor) and the
// figure STEM_depths (needle share by depth through checkpoints, a heatmap).
KvInfluenceResult run_kv_influence(const KvInfluenceOptions& options);

}  // namespace posbias
