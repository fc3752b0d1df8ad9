// `posbias tasks`: hop-task datasets; `posbias tasks check FILE`: re-solve and report.
#include <memory>

#include "commands.h"
#include "posbias/core/parse.h"
#include "posbias/tasks/tasks_command.h"

namespace posbias::cli {
namespace {

struct TasksArgs {
  TasksOptions options;
  std::string length = "17", count = "1000", seed = "0";
  std::string check_file;
};

}  // namespace

void register_tasks(CLI::App& app, Action* selected) {
  auto a = std::make_shared<TasksArgs>();
  TasksOptions& o = a->options;
  CLI::App* cmd = app.add_subcommand(
      "tasks",
      "Write Number or Letter hop-task examples (DESIGN.md §3): balanced over hops, target "
      "position and answer, deterministic for a seed. `tasks check FILE` re-solves a JSONL file.");
  cmd->add_option("--task", o.task, "number (positional) or letter (symbolic)")
      ->capture_default_str();
  cmd->add_option("--hops", o.hops, "hop count 1..4, or a comma list the examples cycle through")
      ->capture_default_str();
  cmd->add_option("-L,--length", a->length, "tokens per example, query included")
      ->capture_default_str();
  cmd->add_option("--count", a->count, "number of examples")->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed")->capture_default_str();
  cmd->add_option("--variant", o.variant,
                  "standard, seen_jumps (number: every jump ≤ 16) or decoy (letter: a second, "
                  "unreachable chain)")
      ->capture_default_str();
  cmd->add_option("--format", o.format,
                  "jsonl (task, variant, hops, length, tokens, answer, chain) or tokens (ids, "
                  "one example a line, for `birth --tokens`)")
      ->capture_default_str();
  cmd->add_option("-o,--out", o.out, "output file (written atomically; default: stdout)");
  CLI::App* check = cmd->add_subcommand(
      "check", "Re-solve every example of a JSONL file independently and report wrong ones");
  check->add_option("file", a->check_file, "JSONL file")->required();
  cmd->callback([a, selected, check] {
    if (check->parsed()) {
      *selected = [a] { run_tasks_check(a->check_file); };
      return;
    }
    *selected = [a] {
      TasksOptions opt = a->options;
      opt.length = parse_integer(a->length, "--length");
      opt.count = parse_integer(a->count, "--count");
      opt.seed = parse_seed(a->seed);
      run_tasks(opt);
    };
  });
}

}  // namespace posbias::cli
