// The tasks' enums as values of a field table (core/field_table.h): a record holds the enum and
// its row is a plain field(); the writer writes the enum's name from its one name table and the
// strict reader refuses a name that is not in it, listing the names there are:
//   "unknown task 'words' (use number, letter, text or kv)"
// Task (vocab.h), Variant (hop_task.h), AnswerInputs (retrieval_inputs.h: a retrieval run's
// task, kv or passkey), DepthPrior (kv_task.h) and EvalTask (eval_task.h).
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/tasks/eval_task.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

struct TaskNames {
  static std::string name(Task t) { return std::string(task_name(t)); }
  static Task parse(const std::string& s) { return parse_task(s); }
};
struct VariantNames {
  static std::string name(Variant v) { return std::string(variant_name(v)); }
  static Variant parse(const std::string& s) { return parse_variant(s); }
};
struct AnswerInputsNames {
  static std::string name(AnswerInputs a) { return to_string(a); }
  static AnswerInputs parse(const std::string& s) {
    return parse_answer_inputs(s, "retrieval task");
  }
};
struct EvalTaskNames {
  static std::string name(EvalTask t) { return to_string(t); }
  static EvalTask parse(const std::string& s) { return parse_eval_task(s); }
};
struct DepthPriorNames {
  static std::string name(DepthPrior p) { return std::string(depth_prior_name(p)); }
  static DepthPrior parse(const std::string& s) { return parse_depth_prior(s); }
};

template <>
struct FieldCodec<Task> : EnumCodec<Task, TaskNames> {};
template <>
struct FieldCodec<Variant> : EnumCodec<Variant, VariantNames> {};
template <>
struct FieldCodec<AnswerInputs> : EnumCodec<AnswerInputs, AnswerInputsNames> {};
template <>
struct FieldCodec<DepthPrior> : EnumCodec<DepthPrior, DepthPriorNames> {};
template <>
struct FieldCodec<EvalTask> : EnumCodec<EvalTask, EvalTaskNames> {};

}  // namespace posbias
