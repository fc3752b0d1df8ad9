#include "posbias/train/position_table_init.h"

#include <stdexcept>

#include "posbias/runfiles/train_config.h"

namespace posbias {

void scale_position_table_init(Transformer& model, const TrainConfig& c) {
  if (!c.pos_init_scale) return;
  if (!model->wpe.defined())
    throw std::logic_error("scale_position_table_init: a model without a position table");
  torch::NoGradGuard no_grad;
  model->wpe.mul_(*c.pos_init_scale);
}

}  // namespace posbias
