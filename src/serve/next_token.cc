#include "posbias/serve/greedy_step.h"

#include <algorithm>

namespace posbias {

std::vector<std::int64_t> greedy_last_tokens(Transformer& model,
                                             const std::vector<const BatchQueue::Input*>& batch) {
  torch::NoGradGuard no_grad;
  const auto length = static_cast<std::int64_t>(batch.front()->size());
  torch::Tensor ids =
      torch::empty({static_cast<std::int64_t>(batch.size()), length}, torch::kInt64);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    std::copy(batch[i]->begin(), batch[i]->end(),
              ids[static_cast<std::int64_t>(i)].data_ptr<std::int64_t>());
  }
  const torch::Tensor predicted = model->last_logits(ids).argmax(-1).contiguous();
  const auto p = predicted.accessor<std::int64_t, 1>();
  std::vector<std::int64_t> out(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) out[i] = p[static_cast<std::int64_t>(i)];
  return out;
}

}  // namespace posbias
