// An independent solver for passkey examples (passkey_task.h): it reads only the example's text
// (what the model reads up to the answer), finds the question's name after the last "What is
// the pass key of ", finds every line "The pass key of <that name> is <digits>." before it, and
// reports what is wrong with an example (no question, no needle or several under the name, a
// needle count or an answer that differs from the file's). `posbias tasks check FILE` runs it
// on every line whose "task" is "passkey".
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace posbias {

struct PasskeySolution {
  std::string name;    // the question's name
  std::string answer;  // the number of that name's needle
  int needles = 0;     // needle lines under any name
};

// Solves from the text alone. Throws std::invalid_argument saying why it has no unique answer.
PasskeySolution solve_passkey(const std::string& text);

// Empty when the example's text solves to its answer, queried name and needle count; otherwise
// the reason. Reads the line through its field table (PasskeyExampleLine): throws
// std::invalid_argument naming a missing, unknown or mistyped field.
std::optional<std::string> check_passkey_example(const nlohmann::json& example);

}  // namespace posbias
