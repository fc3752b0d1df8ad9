// The JSONL lines `posbias tasks` writes and `posbias tasks check` reads back: one record per task
// family, each with its field table (core/field_table.h), from which the writer and the strict
// reader come. The tables check each field's kind and range; what ties fields together (a line's
// length against its tokens, a hop task's name) is checked by the readers of hop_task.h,
// kv_task.h and passkey_task.h, which the tasks use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

// A hop example and its token count, which the line states.
struct ExampleLine {
  Example example;
  int length = 0;
};
const std::vector<FieldRow<ExampleLine>>& example_line_fields();

// A kv example, its task ("kv") and its token count; the queried index is not stored (the
// solver finds it from the tokens).
struct KvExampleLine {
  KvExample example;
  Task task = Task::kKv;
  int length = 0;
};
const std::vector<FieldRow<KvExampleLine>>& kv_example_line_fields();

// A passkey example as its line holds it: the queried needle's place and answer, and `text`, the
// decoded ids before the answer, i.e. what the model reads up to the answer ("... The pass key
// of <Name> is").
struct PasskeyExampleLine {
  AnswerInputs task = AnswerInputs::kPasskey;
  int length = 0;    // L
  int needles = 0;   // K
  double depth = 0;  // the queried needle's
  int position = 0, offset = 0;
  int haystack = 0;  // F
  std::string queried_name, answer;
  int answer_start = 0;
  std::string text;
  std::vector<std::int32_t> ids;  // L + 1
};
const std::vector<FieldRow<PasskeyExampleLine>>& passkey_example_line_fields();
nlohmann::json to_json(const PasskeyExampleLine& line);
// Strict; std::invalid_argument naming a missing, unknown or mistyped field, or another task.
PasskeyExampleLine passkey_example_line_from_json(const nlohmann::json& j);

}  // namespace posbias
