// What eval by depth × length writes, whatever the task (kv, passkey): the JSON, the CSV (its
// cell columns; each task adds its own columns, pairs, needles, the queried pair, around them),
// the heatmap and accuracy-by-depth figures, and the one-line summary on stderr.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "posbias/core/plot.h"
#include "posbias/train/depth_accuracy.h"

namespace posbias {

// The header of a cell's columns and a cell's values, in that order, without a trailing comma.
inline constexpr const char* kDepthCellColumns = "n,correct,accuracy,lo,hi,chance";
std::string depth_cell_csv(const DepthCell& cell);

// "eval: TASK at step S; effective length L (threshold T); U verdict pooled over lengths: V".
void print_depth_eval_summary(const std::string& task, std::int64_t step,
                              const DepthAccuracy& accuracy);

// Where eval writes: json (empty = stdout), csv and the figures' stem (empty = not written).
struct DepthEvalOutputs {
  std::string json, csv, plot;
};
// Writes `json`, `csv`, STEM-heatmap and STEM-depth where `to` says, then the summary line.
void write_depth_eval(const std::string& task, const DepthEvalOutputs& to,
                      const nlohmann::json& json, const std::string& csv, const Figure& heatmap,
                      const Figure& by_depth, std::int64_t step, const DepthAccuracy& accuracy);

}  // namespace posbias
