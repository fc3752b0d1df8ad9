// The keys of an accuracy per hop count, as a run's files and the results read back write them
// (metrics.jsonl's acc, eval, ablation, seeds and llm results): "1", "2", ... and kAllHopsKey,
// every hop at once (a kv run's one accuracy, an llm suite's row over every hop or depth); and
// the title a figure gives each.
#pragma once

#include <string>

namespace posbias {

inline constexpr char kAllHopsKey[] = "all";

// "all hops" for kAllHopsKey, else "2-hop".
inline std::string hop_key_title(const std::string& key) {
  return key == kAllHopsKey ? "all hops" : key + "-hop";
}

}  // namespace posbias
