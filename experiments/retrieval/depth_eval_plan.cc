#include "experiments/retrieval/depth_eval_plan.h"

#include <string>

#include "posbias/model/memory_plan.h"
#include "posbias/train/hop_eval.h"

namespace posbias {

std::vector<AttentionPath> plan_depth_eval(const TrainConfig& c, const std::vector<int>& lengths,
                                           const std::function<DepthEvalShape(int)>& shape,
                                           std::int64_t count,
                                           std::optional<AttentionPath> attention,
                                           double memory_budget_gb) {
  std::vector<AttentionPath> paths;
  for (int len : lengths) {
    const DepthEvalShape s = shape(len);
    auto bytes = [&](AttentionPath a) {
      return weight_bytes(c.model_config(), true) + hop_examples_bytes(count, s.example_ids) +
             forward_bytes(c.model_config(), eval_batch_size(s.forward_tokens), s.forward_tokens,
                           /*cached=*/false, {a});
    };
    paths.push_back(plan_attention(bytes, attention, memory_budget_gb,
                                   "eval at length " + std::to_string(len),
                                   "shorter --lengths or a smaller --count"));
  }
  return paths;
}

}  // namespace posbias
