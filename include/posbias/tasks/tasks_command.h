// `posbias tasks`: write hop-task, key–value retrieval or passkey (needle in Brown text) datasets
// (JSONL or token ids) and check them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/passkey_run.h"

namespace posbias {

// How `tasks` writes its examples: JSON lines, or token ids (separated by spaces, one line each).
enum class ExampleFormat { kJsonl, kTokens };
ExampleFormat parse_example_format(const std::string& name);  // jsonl | tokens
std::string to_string(ExampleFormat format);

// What `tasks --task` writes, named by the training task it serves: number or letter (hop
// tasks), kv (key–value), or for Task::kText passkey needles in a text run's held-out text. The
// names are number, letter, kv (the tasks' own, vocab.h) and passkey; std::invalid_argument
// in one line for any other.
Task parse_tasks_task(const std::string& name);
std::string tasks_task_name(Task task);

struct TasksOptions {
  Task task = Task::kNumber;          // Task::kText: passkey (see parse_tasks_task)
  std::vector<int> hops{1, 2, 3, 4};  // hop tasks: examples cycle through them
  std::int64_t length = 17;
  std::int64_t count = 1000;
  std::uint64_t seed = 0;
  Variant variant = Variant::kStandard;           // seen_jumps: number only; decoy: letter only
  DepthPrior depth_prior = DepthPrior::kUniform;  // kv, passkey: how the depths are drawn
  // passkey: the text run whose tokenizer and held-out Brown text the examples use; its training
  // length and needles when length or needles is 0.
  std::string run;
  int needles = 0;
  ExampleFormat format = ExampleFormat::kJsonl;
  std::string out;  // empty = stdout; outside the table
};
// The options' field table, in the order `posbias tasks --help` lists them: the flags with their
// help, type, default and parsing come from it (apps/posbias), each row's from_flag parsing the
// flag's text as the command line always has. Not in it: --out (registered by hand).
const std::vector<FieldRow<TasksOptions>>& tasks_option_fields();

// How passkey's --run folder is read: runfiles/passkey_run_files.h's open_passkey_run, which the
// command line hands down (runfiles sits above tasks). Called once the other options are checked.
using PasskeyRunOpener = std::function<PasskeyRun(const std::filesystem::path& run)>;

// Throws std::invalid_argument for bad options, std::runtime_error for I/O failures.
void run_tasks(const TasksOptions& options, const PasskeyRunOpener& open_run);

// Checks every example of a JSONL file; prints a summary to stdout and each problem to stderr.
// Throws std::runtime_error when any example is wrong (so the exit status is 1).
void run_tasks_check(const std::string& path);

}  // namespace posbias
