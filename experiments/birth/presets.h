// The birth experiment's two scales, the only place their numbers live: quick() for `reproduce`
// (d 128, L 128), full() for `reproduce --full` and the docs runs (d 256, L 256, the commands
// docs/birth.md shows). Report prose is formatted from the preset that ran.
#pragma once

#include <string>
#include <vector>

#include "experiments/birth/birth.h"

namespace posbias {

// One model measured at init (no training run: a birth --run result over a training run's
// checkpoints is a BirthRunRecord).
struct BirthMeasurement {
  std::string name;  // "GPT-2 style, 12 layers"
  std::string file;  // file stem in the report's birth/ folder
  BirthOptions options;
};

struct BirthPreset {
  std::string name;  // "quick" | "full"
  // GPT-2 style (12 layers), Qwen2 style (24 layers) with RoPE, and the same without positional
  // encoding, in that order: exact Jacobians, 8 seeds.
  std::vector<BirthMeasurement> measurements;

  static BirthPreset quick();
  static BirthPreset full();
  // "d = 128, L = 128, 8 seeds".
  std::string describe() const;
};

}  // namespace posbias
