#include "posbias/tasks/eval_task.h"

#include "posbias/core/enum_names.h"

namespace posbias {
namespace {

// The names of Task's and AnswerInputs' tables; passkey is only AnswerInputs'.
const EnumNames<EvalTask, 5>& eval_task_names() {
  static const std::string passkey = to_string(AnswerInputs::kPasskey);
  static const EnumNames<EvalTask, 5> names{{{EvalTask::kNumber, task_name(Task::kNumber)},
                                             {EvalTask::kLetter, task_name(Task::kLetter)},
                                             {EvalTask::kText, task_name(Task::kText)},
                                             {EvalTask::kKv, task_name(Task::kKv)},
                                             {EvalTask::kPasskey, passkey}}};
  return names;
}

}  // namespace

EvalTask eval_task(Task task) {
  switch (task) {
    case Task::kNumber:
      return EvalTask::kNumber;
    case Task::kLetter:
      return EvalTask::kLetter;
    case Task::kText:
      return EvalTask::kText;
    case Task::kKv:
      return EvalTask::kKv;
  }
  return EvalTask::kText;  // unreachable: every task is above
}

EvalTask eval_task(AnswerInputs inputs) {
  return inputs == AnswerInputs::kKv ? EvalTask::kKv : EvalTask::kPasskey;
}

std::string to_string(EvalTask task) { return std::string(name_of(eval_task_names(), task)); }

EvalTask parse_eval_task(const std::string& name) {
  return value_of(eval_task_names(), name, "eval task");
}

}  // namespace posbias
