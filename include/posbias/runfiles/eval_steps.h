// `posbias eval --checkpoints` when it selects several checkpoints of one run. The file holds
// the run, its task and, in training order, each checkpoint's result exactly as `eval
// --checkpoints STEP` writes it for that checkpoint alone (each with its "step"): a record of the
// task's own eval (HopEvalSteps, DepthEvalSteps, TextEvalSteps beside their records), written and
// read strictly by that record's field table.
// One checkpoint (the default, `last`, or one step) keeps the one-result file, so the readers of
// an eval (seeds --eval, the report) read it as before; they refuse a file of several in one
// line saying how to get one.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/tasks/eval_task.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

// The file's record, one field table for its writer and strict reader; each checkpoint's result
// is a Record, written and read by RecordCodec (its table: TableCodec).
template <class Record, class RecordCodec = FieldCodec<Record>>
struct EvalSteps {
  using RecordType = Record;
  using Codec = RecordCodec;
  std::string run;
  EvalTask task = EvalTask::kNumber;
  std::vector<Record> checkpoints;
};

// The row of the task an eval file names: the file of several's, and the key each task's one
// result names its task by.
template <class S>
FieldRow<S> eval_task_field(EvalTask S::*member) {
  return required(field("task", member, "the run's task"));
}

template <class Steps>
const std::vector<FieldRow<Steps>>& eval_steps_fields() {
  using E = Steps;
  static const std::vector<FieldRow<E>> rows = {
      required(field("run", &E::run, "the run directory evaluated")),
      eval_task_field(&E::task),
      required(field<E, std::vector<typename E::RecordType>,
                     ListCodec<typename E::RecordType, typename E::Codec>>(
          "checkpoints", &E::checkpoints, "each checkpoint's eval, in training order")),
  };
  return rows;
}

template <class Record, class RecordCodec>
nlohmann::json to_json(const EvalSteps<Record, RecordCodec>& steps) {
  return fields_to_json(eval_steps_fields<EvalSteps<Record, RecordCodec>>(), steps);
}

// Strict: an unknown, missing or mistyped field, a checkpoint's too, throws std::invalid_argument
// naming it ("eval --checkpoints field 'checkpoints.1.step'").
template <class Steps>
Steps eval_steps_from_json(const nlohmann::json& j) {
  return fields_from_json(eval_steps_fields<Steps>(), j, Steps{}, "eval --checkpoints field");
}

// A checkpoint's result left unread (any object): the file's own fields tell what it is whatever
// its task.
struct UnreadEval {};
struct UnreadEvalCodec {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const UnreadEval&) { return nlohmann::json::object(); }
  static UnreadEval read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_object()) throw std::invalid_argument(what + " must be an object");
    return {};
  }
};
using AnyEvalSteps = EvalSteps<UnreadEval, UnreadEvalCodec>;

// What a file `eval` wrote is, told by the tables above: the file of several checkpoints (exactly
// AnyEvalSteps' fields), or one checkpoint's result, with the task it names.
struct EvalFileKind {
  EvalTask task = EvalTask::kNumber;
  std::optional<std::size_t> checkpoints;  // the file of several: how many; none: one result
};
// std::invalid_argument in one line for a file that is no eval result: not an object, or no task
// eval measures ("missing eval field 'task'", "eval field 'task': unknown eval task 'hop' (use
// ...)").
EvalFileKind eval_file_kind(const nlohmann::json& j);

// Throws std::runtime_error naming `source` when `j` is the file of several checkpoints.
void refuse_eval_steps(const nlohmann::json& j, const std::string& source);

}  // namespace posbias
