// libFuzzer target: every body the network can send. Responses the harness parses, requests
// the server parses, and the answer scorer and task-input reader on the same bytes must accept
// or throw their one-line errors, never crash; a parsed request honours its limits.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "posbias/llm/answer.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/openai_request.h"
#include "posbias/llm/probe.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  for (posbias::Api api : {posbias::Api::kChat, posbias::Api::kCompletions}) {
    try {
      // Plain and streamed bodies alike; a log-probability sum is finite, its tokens counted,
      // and the text comes from the body's bytes.
      const posbias::ParsedCompletion c = posbias::parse_completion(api, body);
      if (c.logprob && (!std::isfinite(*c.logprob) || !c.tokens)) __builtin_trap();
      if (c.tokens && *c.tokens < 0) __builtin_trap();
      if (c.text.size() > body.size()) __builtin_trap();
    } catch (const std::runtime_error&) {
    }
    try {
      const posbias::CompletionRequest r = posbias::parse_request(api, body);
      if (r.max_tokens < 1 || r.max_tokens > posbias::kMaxRequestTokens) __builtin_trap();
      if (r.prompt.size() > body.size()) __builtin_trap();
      if (r.n < 1 || r.n > posbias::kMaxChoices) __builtin_trap();
      if (r.logprobs < -1 || r.logprobs > posbias::kMaxChatTopLogprobs) __builtin_trap();
    } catch (const std::invalid_argument&) {
    }
  }
  for (const char* suite : {"number", "letter", "needle"}) {
    (void)posbias::score_answer(suite, body, "c:4");
  }
  try {
    const auto tokens =
        posbias::extract_task_input(body, posbias::Vocabulary::of(posbias::Task::kLetter));
    if (tokens.empty()) __builtin_trap();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
