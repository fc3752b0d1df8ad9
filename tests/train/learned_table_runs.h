// Small kv runs with a learned position table, for the tests of the table's own options
// (pos_lr_scale in optimizer_test, pos_init_scale in position_table_init_test).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "posbias/runfiles/train_config.h"
#include "posbias/train/trainer.h"

namespace posbias::learned_table_runs {

// qwen2 with a learned table: one layer, d 32, 2 heads, MLP 64, L 16, batch 8, 20 steps. Not
// finalized, so that a test sets its option (and any size it needs) first.
inline TrainConfig kv_config() {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.pos = PosEncoding::kLearned;
  c.layers = 1;
  c.d_model = 32;
  c.heads = 2;
  c.mlp = 64;
  c.length = 16;
  c.batch = 8;
  c.steps = 20;
  c.warmup = 2;
  return c;
}

// What finalize says of `c`: its refusal's one line, or "" when it takes the config.
inline std::string refusal(TrainConfig c) {
  try {
    c.finalize();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// The flat offset of the model's position table (the parameter `wpe` the trainer's model owns).
inline std::int64_t table_offset(const Trainer& t) {
  return t.model->wpe.data_ptr<float>() - t.flat->params.data_ptr<float>();
}

}  // namespace posbias::learned_table_runs
