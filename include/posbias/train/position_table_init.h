// `train --pos-init-scale X`: a learned position table drawn at X times the init std of every
// other weight. init_weights draws the table as it draws the rest; scaling it afterwards leaves
// the draw order, and so every other weight, as the run without the option gives it.
#pragma once

#include "posbias/model/transformer.h"

namespace posbias {

struct TrainConfig;

// After init_weights (and init_sink_weights): multiplies the model's position table by
// c.pos_init_scale (0: a table of zeros). Does nothing when the option is unset.
void scale_position_table_init(Transformer& model, const TrainConfig& c);

}  // namespace posbias
