// What eval by depth × length writes besides its JSON, whatever the task (kv, passkey): the
// CSV's cell columns and the one-line summary on stderr. Each task adds its own columns (pairs,
// needles, the queried pair) around them.
#pragma once

#include <cstdint>
#include <string>

#include "posbias/train/depth_accuracy.h"

namespace posbias {

// The header of a cell's columns and a cell's values, in that order, without a trailing comma.
inline constexpr const char* kDepthCellColumns = "n,correct,accuracy,lo,hi,chance";
std::string depth_cell_csv(const DepthCell& cell);

// "eval: TASK at step S; effective length L (threshold T); U verdict pooled over lengths: V".
void print_depth_eval_summary(const std::string& task, std::int64_t step,
                              const DepthAccuracy& accuracy);

}  // namespace posbias
