#include "posbias/train/sink_token.h"

#include <stdexcept>

#include "posbias/runfiles/train_config.h"
#include "posbias/tasks/kv_task.h"

namespace posbias {

std::int64_t sink_token_id() { return static_cast<std::int64_t>(kv_vocabulary().size()); }

void init_sink_weights(Transformer& model, const TrainConfig& c) {
  if (!c.sink) return;
  TrainConfig plain = c;
  plain.sink = false;
  Transformer base(plain.model_config());
  base->init_weights(c.seed);
  torch::NoGradGuard no_grad;
  const auto from = base->named_parameters();
  for (auto& p : model->named_parameters()) {
    const torch::Tensor* source = from.find(p.key());
    if (source == nullptr) throw std::logic_error("init_sink_weights: no base '" + p.key() + "'");
    torch::Tensor& t = p.value();
    if (t.sizes() == source->sizes()) {
      t.copy_(*source);
    } else if (t.dim() == source->dim() && t.size(0) == source->size(0) + 1) {
      t.slice(0, 0, source->size(0)).copy_(*source);  // the sink's row keeps its own draw
    } else {
      throw std::logic_error("init_sink_weights: '" + p.key() + "' differs in more than a row");
    }
  }
}

}  // namespace posbias
