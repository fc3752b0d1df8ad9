// `posbias eval`: accuracy of a trained hop model per input length and per hop, on fresh
// examples from the same generator (longer inputs = more distractors). Adds the task's
// control (DESIGN.md §3): Number → the seen_jumps variant (no integer beyond the trained
// jumps), Letter → the decoy variant (and how often the decoy's target is picked).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace posbias {

struct EvalOptions {
  std::string run;         // RUN_DIR
  std::string checkpoint;  // empty = the run's latest
  std::string lengths = "17,32,64,128,256,512,850";
  std::int64_t count = 200;  // examples per (length, hop)
  std::uint64_t seed = 1;
  bool controls = true;
  std::string json;  // empty = stdout
  std::string plot;  // figure stem: accuracy against length
};

// JSON: {"task", "step", "lengths", "accuracy": {"17": {"1": .., "all": ..}, ...},
//        "controls": {"seen_jumps"|"decoy": {"accuracy": {...}[, "decoy_rate": {...}]}}}.
nlohmann::json run_eval(const EvalOptions& options);

}  // namespace posbias
