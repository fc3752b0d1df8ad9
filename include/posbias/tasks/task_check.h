// An independent solver for hop-task examples: it reads only the tokens and the hop count,
// follows the look-ups itself, and reports what is wrong with an example (a bad token, an
// ambiguous or missing look-up, a chain or answer that differs from the file's).
// `posbias tasks check FILE` runs it over a JSONL file (lines whose "task" is "kv" go to the
// key–value solver of kv_check.h, "passkey" to the passkey solver of passkey_check.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "posbias/tasks/hop_task.h"

namespace posbias {

struct Solution {
  std::string answer;
  std::vector<int> chain;
};

// Solves from the tokens alone. Throws std::invalid_argument saying why the example has no
// unique solution.
Solution solve(Task task, int hops, const std::vector<std::string>& tokens);

// Empty when the example is well formed and its answer and chain are the solver's; otherwise
// the reason.
std::optional<std::string> check_example(const Example& example);

struct CheckReport {
  std::int64_t examples = 0;
  std::vector<std::string> problems;  // "line N: reason"
};

// Reads a JSONL file of examples (blank lines skipped) and checks every line, hop or kv. Lines
// longer than 64 MiB or unreadable files throw std::runtime_error.
CheckReport check_file(const std::filesystem::path& path);

}  // namespace posbias
