// The mech experiment's two scales, the only place their numbers live: quick() for `reproduce`,
// full() for `reproduce --full` and the docs runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

struct MechPreset {
  std::string name;                      // "quick" | "full"
  std::int64_t construction_count = 0;   // task inputs per length in each construction sweep
  std::vector<int> discrepancy_lengths;  // trained-model discrepancy: input lengths
  std::int64_t discrepancy_count = 0;    // examples per length

  static MechPreset quick();  // 16 inputs per construction length; trained models to 256 tokens
  static MechPreset full();   // 64 inputs; trained models to 850 tokens
};

}  // namespace posbias
