// The hops experiment's two scales, the only place their numbers live: quick() for `reproduce`
// (about a minute per task here), full() for `reproduce --full` and the docs runs (the shipped
// gptj-hop training defaults). Report prose is formatted from the preset it ran.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/runfiles/train_config.h"

namespace posbias {

struct HopsPreset {
  std::string name;  // "quick" | "full"
  TrainConfig number, letter;
  std::vector<std::int64_t> eval_lengths;  // `posbias eval` after training
  std::int64_t eval_count = 0;             // examples per (length, hop)
  // The positional-encoding ablation's eval (ablation_report.h): to 850 tokens at both scales,
  // where full-scale Letter with RoPE on every dim breaks.
  std::vector<std::int64_t> ablation_lengths;

  // 4 layers on 1- and 2-hop examples, 800 steps per task (both tasks reach 1.0 at length 17),
  // a checkpoint every 200 steps for the head-score heatmaps; eval to 256 tokens.
  static HopsPreset quick();
  // TrainConfig's defaults (12 layers, hops 1-4, 3000 Number and 5000 Letter steps); eval to 850.
  static HopsPreset full();

  const TrainConfig& config(Task task) const { return task == Task::kNumber ? number : letter; }
  // "4 layers, hops 1-2, 800 Number and 800 Letter steps".
  std::string describe() const;
};

}  // namespace posbias
