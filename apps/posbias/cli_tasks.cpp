// `posbias tasks`: hop-task and key–value retrieval datasets; `posbias tasks check FILE`:
// re-solve and report.
#include <memory>
#include <stdexcept>

#include "commands.h"
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
  ParsedOptions& p = a->parsed;
  p.add_choice(cmd, "--task", &o.task,
               "number (positional hops), letter (symbolic hops), kv (key–value retrieval) or "
               "passkey (needles in a text run's held-out Brown text, in its tokens)",
               parse_tasks_task, tasks_task_name);
  add_path_option(cmd, "--run", o.run,
                  "passkey: the text run whose tokenizer and held-out text the examples use");
  p.add(cmd, "--needles", &o.needles,
        "passkey: needles per example, the queried one and distractors (default: the run's)");
  p.add(cmd, "--hops", &o.hops, "hop count 1..4, or a comma list the examples cycle through");
  p.add(cmd, "-L,--length", &o.length,
        "tokens per example, query included (kv: the pairs are (L - 4) / 6; passkey: the model "
        "reads L ids, the example is L + 1 with the answer; default the run's length)");
  p.add_choice(cmd, "--depth-prior", &o.depth_prior,
               "kv: where the queried pair is drawn, uniform over the pairs or ends "
               "(Beta(0.5, 0.5) over depth); passkey: where the needles are drawn",
               parse_depth_prior, depth_prior_name);
  p.add(cmd, "--count", &o.count, "number of examples");
  p.add(cmd, "--seed", &o.seed, "seed");
  p.add_choice(cmd, "--variant", &o.variant,
               "standard, seen_jumps (number: every jump ≤ 16) or decoy (letter: a second, "
               "unreachable chain)",
               parse_variant, variant_name);
  p.add_choice(cmd, "--format", &o.format,
               "jsonl (hop tasks: task, variant, hops, length, tokens, answer, chain; kv: task, "
               "depth_prior, length, pairs, tokens, answer, depth, position; passkey: task, "
               "length, needles, depth, position, offset, haystack, queried_name, answer, "
               "answer_start, text, ids) or tokens (ids, one example a line, for `birth "
               "--tokens`)",
               parse_example_format, [](ExampleFormat f) { return to_string(f); });
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
