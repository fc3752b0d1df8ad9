// `posbias tasks`: hop-task and key–value retrieval datasets; `posbias tasks check FILE`:
// re-solve and report.
#include <memory>
#include <stdexcept>

#include "commands.h"
#include "field_flags.h"
#include "parsed_options.h"
#include "posbias/runfiles/passkey_run_files.h"
#include "posbias/tasks/tasks_command.h"

namespace posbias::cli {
namespace {

struct TasksArgs {
  TasksOptions options;
  ParsedOptions parsed;
  std::string check_file;
};

}  // namespace

void register_tasks(CLI::App& app, Action* selected) {
  auto a = std::make_shared<TasksArgs>();
  TasksOptions& o = a->options;
  CLI::App* cmd = app.add_subcommand(
      "tasks",
      "Write Number or Letter hop-task examples (docs/hops.md; balanced over hops, target "
      "position and answer), key–value retrieval examples (--task kv, docs/retrieval.md) or "
      "passkey "
      "needles in a text run's held-out Brown text (--task passkey --run RUN), "
      "deterministic for a seed. `tasks check FILE` re-solves a JSONL file.");
  add_field_flags(cmd, &a->parsed, tasks_option_fields(), o, &o, "tasks option",
                  {{{"length", "-L"}}, {}}, [](const std::string&, CLI::Option*) {});
  add_output_option(cmd, "-o,--out", o.out, "output file (written atomically; default: stdout)");
  CLI::App* check = cmd->add_subcommand(
      "check", "Re-solve every example of a JSONL file independently and report wrong ones");
  add_path_option(check, "file", a->check_file, "JSONL file")->required();
  cmd->callback([a, selected, check, cmd] {
    if (check->parsed()) {
      *selected = [a] { run_tasks_check(a->check_file); };
      return;
    }
    const bool hops_given = cmd->get_option("--hops")->count() > 0;
    const bool length_given = cmd->get_option("--length")->count() > 0;
    *selected = [a, hops_given, length_given] {
      a->parsed.parse();
      if (hops_given && !is_hop_task(a->options.task)) {
        throw std::invalid_argument("--hops belongs to the hop tasks, not --task " +
                                    tasks_task_name(a->options.task));
      }
      if (a->options.task == Task::kText && !length_given) a->options.length = 0;  // the run's
      run_tasks(a->options, open_passkey_run);
    };
  });
}

}  // namespace posbias::cli
