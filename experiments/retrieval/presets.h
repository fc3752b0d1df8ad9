// The retrieval bench's two scales, the only place their numbers live: quick() for `reproduce`
// (two small qwen2 configurations, 2 seeds each, at 2 pairs), full() for `reproduce --full` and
// the bench's docs runs (docs/retrieval.md: gpt2 and qwen2 with their own and each other's
// positional encoding, NoPE, ALiBi, a sliding window and the `ends` depth prior, 3 seeds each).
// Every configuration trains seeds 0..seeds-1 (seed k of every configuration draws the same data
// stream), is evaluated by depth × length at the training length, 2× and 4× (those a learned
// position table holds), and has its influence measured at its last checkpoint on the first
// examples of eval's cells at the training length (docs/retrieval.md, "The bench", runs the full
// configurations the same way with scripts/kv-bench.py). Report prose is formatted from the
// preset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/runfiles/train_config.h"

namespace posbias {

struct RetrievalRun {
  std::string name;    // "qwen2, RoPE, window 6": what the report calls it
  std::string folder;  // "qwen2-rope-window6": its folder in the report's retrieval/
  TrainConfig config;  // finalized; its seed is replaced by each training seed
};

struct RetrievalPreset {
  std::string name;  // "quick" | "full"
  std::vector<RetrievalRun> runs;
  int seeds = 3;                                                              // training seeds
  std::vector<double> depths = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent
  std::int64_t eval_count = 100;  // examples per depth × length cell
  // Co-location at the training length on these depths (empty = `depths`, from the eval above);
  // otherwise a second eval there, colocation_count examples per depth (one depth per pair
  // keeps depths that share a pair from being compared).
  std::vector<double> colocation_depths;
  std::int64_t colocation_count = 200;
  int influence_per_depth = 8;  // influence inputs per co-location depth (eval's first examples)

  static RetrievalPreset quick();
  static RetrievalPreset full();
  // "2 configurations × 2 seeds: 2 layers, d 64, L 16, 1000 steps".
  std::string describe() const;
};

}  // namespace posbias
