// The text-training experiment's two scales, the only place their numbers live: quick() for
// `reproduce` (300 steps of a 4-layer d 64 model), full() for
// `reproduce --full` and the docs runs (`posbias train --task text`'s defaults). Report prose is
// formatted from the preset that ran.
#pragma once

#include <string>

#include "posbias/runfiles/train_config.h"

namespace posbias {

struct TextPreset {
  std::string name;     // "quick" | "full"
  TrainConfig config;   // gpt2 on the Brown corpus
  int birth_seeds = 8;  // held-out sequences per checkpoint for `birth --run`
  std::int64_t birth_length = 256;

  static TextPreset quick();
  static TextPreset full();
  // "gpt2, 6 layers, d 256, L 256, 3000 steps".
  std::string describe() const;
};

}  // namespace posbias
