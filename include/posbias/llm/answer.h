// Answer extraction for the probe suites, reported both ways:
// - strict: the whole response, trimmed of white space, is the answer;
// - lenient: the last answer-shaped word of the response is the answer. Words are split at
//   white space and at , ; ! ? " ' ` * ( ) [ ] { } < > and a trailing '.', so "The answer is
//   **c:4**." gives c:4. Answer-shaped: a Number-task letter (number), a Letter-task target
//   "l:digit" (letter), a UUID (needle). Kv: the response's last 3 digits, in order, are the
//   value's ("Value: 407" and "4 0 7" both match "4 0 7"). Passkey: the response's first run of
//   digits is the number (" 48213." matches 48213). A passkey completion of 5 tokens is strict
//   exactly when greedy decoding gives the number's 5 digits, which is eval's rule, unless the
//   model emits a piece of several digits (possible with a SentencePiece tokenizer; a run's
//   passkeys are always single digits).
#pragma once

#include <string>

namespace posbias {

struct Score {
  bool strict = false, lenient = false;
};

Score score_answer(const std::string& suite, const std::string& response,
                   const std::string& answer);

// The two rules by name, from one table: llm --score, a summary's accuracy, its CSV columns and
// its figures' axis.
enum class ScoreRule { kStrict, kLenient };
std::string to_string(ScoreRule rule);
// std::invalid_argument "unknown --score 'x' (use strict or lenient)" for any other name (with a
// near miss's "did you mean").
ScoreRule parse_score_rule(const std::string& name);
std::string score_rule_names();  // "strict or lenient"

}  // namespace posbias
