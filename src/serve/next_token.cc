#include "posbias/serve/next_token.h"

#include <algorithm>

namespace posbias {

std::vector<NextToken> next_tokens(Transformer& model,
                                   const std::vector<const BatchQueue::Input*>& batch) {
  torch::NoGradGuard no_grad;
  const auto length = static_cast<std::int64_t>(batch.front()->size());
  torch::Tensor ids =
      torch::empty({static_cast<std::int64_t>(batch.size()), length}, torch::kInt64);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    std::copy(batch[i]->begin(), batch[i]->end(),
              ids[static_cast<std::int64_t>(i)].data_ptr<std::int64_t>());
  }
  const torch::Tensor logits = model->last_logits(ids);
  const torch::Tensor predicted = logits.argmax(-1).contiguous();
  const torch::Tensor log_probs = torch::log_softmax(logits.to(torch::kFloat32), -1).contiguous();
  const auto p = predicted.accessor<std::int64_t, 1>();
  const auto vocab = log_probs.size(1);
  std::vector<NextToken> out(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto row = static_cast<std::int64_t>(i);
    out[i].argmax = p[row];
    const float* begin = log_probs[row].data_ptr<float>();
    out[i].log_probs.assign(begin, begin + vocab);
  }
  return out;
}

}  // namespace posbias
