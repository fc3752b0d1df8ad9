// Which retrieval task's inputs a measurement reads (`birth --inputs kv|passkey`, and the
// co-location of its result with the run's eval): kv examples, whose depth places the queried
// pair, or passkey texts, whose depth places the queried needle.
#pragma once

#include <string>

namespace posbias {

enum class AnswerInputs { kKv, kPasskey };
// kv | passkey; std::invalid_argument naming `what` (e.g. "--inputs") otherwise.
AnswerInputs parse_answer_inputs(const std::string& name, const std::string& what = "--inputs");
std::string to_string(AnswerInputs inputs);
// What a depth places: "pair" (kv) or "needle" (passkey).
std::string needle_word(AnswerInputs inputs);

}  // namespace posbias
