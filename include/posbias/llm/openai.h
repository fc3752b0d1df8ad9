// The OpenAI-compatible wire format as the harness (`posbias llm`) speaks it: what it sends and
// how it reads the answer back. What `posbias serve` accepts and answers is in openai_request.h
// and openai_response.h. Every body from the network is untrusted: parsing throws one-line
// errors and never trusts a field's type or size (fuzzed: openai_fuzz).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace posbias {

enum class Api { kChat, kCompletions };  // /v1/chat/completions, /v1/completions
Api parse_api(const std::string& name);  // "chat" | "completions"; std::invalid_argument
std::string to_string(Api api);
const char* api_path(Api api);  // "/chat/completions" | "/completions"

// The URL to POST to. A base URL whose path already ends in the API's path is used as is;
// one ending in /v1 gets the API's path; any other gets /v1 and the API's path.
// "http://127.0.0.1:8000" -> "http://127.0.0.1:8000/v1/chat/completions".
std::string request_url(const std::string& base, Api api);

// What a request asks for besides its prompt. `stream`: the answer comes as server-sent events
// ("stream": true, with stream_options.include_usage). `logprobs`: each completion token's
// log-probability (completions: "logprobs": 0; chat: "logprobs": true).
struct RequestOptions {
  bool stream = false;
  bool logprobs = false;
};

// Greedy (temperature 0) request for one prompt: a single user message for chat. Non-empty
// prompt_ids (completions only) are sent as the prompt instead of the text: OpenAI's array of
// token ids, in the served model's own tokenizer.
std::string request_body(Api api, const std::string& model, const std::string& prompt,
                         int max_tokens, const std::vector<std::int32_t>& prompt_ids = {},
                         const RequestOptions& options = {});

// What the harness reads from an answer: choices[0]'s text, and when the endpoint returned
// per-token log-probabilities, their sum.
struct ParsedCompletion {
  std::string text;
  // The log-probability the model gave its own answer, summed over the completion's tokens;
  // empty when the endpoint returned none (null logprobs, or a text chunk without them).
  std::optional<double> logprob;
  // The completion's token count: the number of log-probabilities summed when there are some,
  // else the response's usage.completion_tokens; empty when it has neither.
  std::optional<std::int64_t> tokens;
};

// Reads a plain JSON body or a streamed one (server-sent events: `data: {json}` events ending
// with `data: [DONE]`), told apart by content: a body whose first line is an event field
// ("data:", or an "event:", "id:", "retry:" or ":" comment line) is a stream. The text is
// choices[0]'s (message.content / delta.content for chat, text for completions), concatenated
// over a stream's chunks, and so are the log-probabilities (completions:
// logprobs.token_logprobs; chat: logprobs.content[i].logprob). Throws
// std::runtime_error("malformed response: ...") for a body that is not such a response,
// for an {"error": ...} body or event (the endpoint's error), and for a stream without
// `data: [DONE]` (cut short); the harness retries all three.
ParsedCompletion parse_completion(Api api, const std::string& body);

}  // namespace posbias
