// The memory plan of eval by depth × length, whatever the task (kv, passkey): per length, the
// attention path under the budget for one cell's examples held at once and the forward run a
// batch at a time (model/memory_plan.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "posbias/model/attention_path.h"
#include "posbias/train/train_config.h"

namespace posbias {

// What a length costs: the ids of one example as held, and the tokens a forward pass reads.
struct DepthEvalShape {
  std::int64_t example_ids = 0, forward_tokens = 0;
};

// One path per length; throws std::invalid_argument in one line (naming the length, and that
// shorter --lengths or a smaller --count would fit) when none fits the budget.
std::vector<AttentionPath> plan_depth_eval(const TrainConfig& config,
                                           const std::vector<int>& lengths,
                                           const std::function<DepthEvalShape(int)>& shape,
                                           std::int64_t count,
                                           std::optional<AttentionPath> attention,
                                           double memory_budget_gb);

}  // namespace posbias
