// An independent solver for key–value retrieval examples (kv_task.h): it reads only the tokens,
// parses fillers, pairs and the query itself, finds the one pair whose key the query names, and
// reports what is wrong with an example (a bad token or layout, a key that matches no pair or
// several, an answer, depth, position or pair count that differs from the file's).
// `posbias tasks check FILE` runs it on every line whose "task" is "kv".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "posbias/tasks/kv_task.h"

namespace posbias {

struct KvSolution {
  int pairs = 0;       // n, counted from the tokens
  int queried = 0;     // the pair the query's key names, 0..n−1
  int position = 0;    // token index of that pair's first key token
  double depth = 0;    // percent, 100 · queried / (n − 1)
  std::string answer;  // its value's tokens joined by spaces
};

// Solves from the tokens alone. Throws std::invalid_argument saying why the tokens have no
// unique answer.
KvSolution solve_kv(const std::vector<std::string>& tokens);

// Empty when the example's tokens solve to its answer, depth (within 1e-9 percent), position
// and pair count; otherwise the reason.
std::optional<std::string> check_kv_example(const KvExample& example);

}  // namespace posbias
