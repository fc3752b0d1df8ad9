#include "experiments/text/presets.h"

#include <fmt/format.h>

namespace posbias {

TextPreset TextPreset::quick() {
  TextPreset p;
  p.name = "quick";
  TrainConfig c = TrainConfig::defaults(Task::kText);
  c.layers = 4, c.d_model = 64, c.heads = 2, c.mlp = 256;
  c.length = 128;
  c.batch = 16;
  c.steps = 300;
  c.warmup = 50;
  c.eval_every = 50;
  c.checkpoint_every = 100;
  c.log_checkpoints = 6;
  c.eval_windows = 32;
  c.finalize();
  p.config = c;
  p.birth_seeds = 4;
  p.birth_length = 128;
  return p;
}

TextPreset TextPreset::full() {
  TextPreset p;
  p.name = "full";
  p.config = TrainConfig::defaults(Task::kText);
  p.config.finalize();
  p.birth_length = p.config.length;
  return p;
}

std::string TextPreset::describe() const {
  return fmt::format("{}, {} layers, d {}, L {}, batch {}, {} steps", to_string(config.arch),
                     config.layers, config.d_model, config.length, config.batch, config.steps);
}

}  // namespace posbias
