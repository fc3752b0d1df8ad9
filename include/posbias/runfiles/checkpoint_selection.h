// Which of a run's checkpoints a measurement reads (`--checkpoints`): every one, the last, or
// the steps listed. Parsed once at the command line; a run's available steps resolve it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

struct CheckpointSelection {
  enum class Kind { kAll, kLast, kSteps };
  Kind kind = Kind::kAll;
  std::vector<std::int64_t> steps;  // kSteps: sorted, distinct, each in 0..1e12

  static CheckpointSelection all() { return {}; }
  static CheckpointSelection last() { return {Kind::kLast, {}}; }
};

// "all", "last" or a comma list of steps; std::invalid_argument naming --checkpoints otherwise.
CheckpointSelection parse_checkpoint_selection(const std::string& text);
// The text that parses back to it ("all", "last", "0,500,1000").
std::string to_string(const CheckpointSelection& selection);
// What --checkpoints takes, from the names' table: as --help's type ("all|last|STEPS") and in
// words ("all, last or a comma list of steps").
std::string checkpoint_selection_type();
std::string checkpoint_selection_choices();
// The selected steps among `available` (increasing): std::runtime_error when the run has none,
// std::invalid_argument naming a listed step the run lacks (with the steps it has).
std::vector<std::int64_t> select_checkpoint_steps(const CheckpointSelection& selection,
                                                  const std::vector<std::int64_t>& available);

}  // namespace posbias
