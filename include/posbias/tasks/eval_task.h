// What `eval` measured on a run, as the file of `eval --checkpoints` names it: a hop task's
// accuracy (number, letter), a text run's held-out loss (text), or retrieval accuracy by depth
// (kv, or passkey on a text run trained with needles). Its names are Task's and AnswerInputs'
// own (vocab.h, retrieval_inputs.h), so kv is one name however it is reached. A record holds
// the enum (its codec: task_codecs.h).
#pragma once

#include <string>

#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

enum class EvalTask { kNumber, kLetter, kText, kKv, kPasskey };
EvalTask eval_task(Task task);            // the eval of a run trained on `task`
EvalTask eval_task(AnswerInputs inputs);  // retrieval by depth: kv or passkey
std::string to_string(EvalTask task);
// number | letter | text | kv | passkey; std::invalid_argument listing the names otherwise.
EvalTask parse_eval_task(const std::string& name);

}  // namespace posbias
