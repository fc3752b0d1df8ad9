// `posbias tasks`' options as a field table (tasks_command.h's tasks_option_fields).
#include <string>
#include <vector>

#include "posbias/core/flag_rows.h"
#include "posbias/tasks/task_codecs.h"
#include "posbias/tasks/tasks_command.h"

namespace posbias {
namespace {

// --task's names: the training task a dataset serves, passkey for Task::kText.
struct TasksTaskNames {
  static std::string name(Task task) { return tasks_task_name(task); }
  static Task parse(const std::string& name) { return parse_tasks_task(name); }
};
struct ExampleFormatNames {
  static std::string name(ExampleFormat format) { return to_string(format); }
  static ExampleFormat parse(const std::string& name) { return parse_example_format(name); }
};

std::vector<FieldRow<TasksOptions>> tasks_option_rows() {
  using O = TasksOptions;
  return {
      named_field<TasksTaskNames>(
          "task", &O::task,
          "number (positional hops), letter (symbolic hops), kv (key–value retrieval) or passkey "
          "(needles in a text run's held-out Brown text, in its tokens)"),
      field("run", &O::run,
            "passkey: the text run whose tokenizer and held-out text the examples use", "PATH"),
      integer_field(
          "needles", &O::needles,
          "passkey: needles per example, the queried one and distractors (default: the run's)"),
      field("hops", &O::hops, "hop count 1..4, or a comma list the examples cycle through"),
      integer_field("length", &O::length,
                    "tokens per example, query included (kv: the pairs are (L - 4) / 6; passkey: "
                    "the model reads L ids, the example is L + 1 with the answer; default the "
                    "run's length)"),
      named_field<DepthPriorNames>(
          "depth_prior", &O::depth_prior,
          "kv: where the queried pair is drawn, uniform over the pairs or ends (Beta(0.5, 0.5) "
          "over depth); passkey: where the needles are drawn"),
      integer_field("count", &O::count, "number of examples"),
      seed_field("seed", &O::seed, "seed"),
      named_field<VariantNames>("variant", &O::variant,
                                "standard, seen_jumps (number: every jump ≤ 16) or decoy (letter: "
                                "a second, unreachable chain)"),
      named_field<ExampleFormatNames>(
          "format", &O::format,
          "jsonl (hop tasks: task, variant, hops, length, tokens, answer, chain; kv: task, "
          "depth_prior, length, pairs, tokens, answer, depth, position; passkey: task, length, "
          "needles, depth, position, offset, haystack, queried_name, answer, answer_start, text, "
          "ids) or tokens (ids, one example a line, for `birth --tokens`)")};
}

}  // namespace

const std::vector<FieldRow<TasksOptions>>& tasks_option_fields() {
  static const std::vector<FieldRow<TasksOptions>> rows = tasks_option_rows();
  return rows;
}

}  // namespace posbias
