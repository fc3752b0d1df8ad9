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
  std::vector<int> search_lengths;       // the index head search (head dim 8): lengths
  int search_steps = 0;                  // and Adam steps per start
  std::int64_t causal_count = 0;         // heads --ablate / --patch: examples per hop and length

  // 16 inputs per construction length; trained models to 256 tokens; the search to n = 256;
  // 48 examples per hop and length in the ablation
  static MechPreset quick();
  // 64 inputs; trained models to 850 tokens; the search at `discrepancy --search`'s defaults;
  // the ablation at `heads --ablate`'s
  static MechPreset full();
};

}  // namespace posbias
