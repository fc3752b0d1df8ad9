// The OpenAI-compatible wire format, both sides: what the harness sends and reads back, and
// what `posbias serve` accepts and answers. Every body from the network is untrusted: parsing
// throws one-line errors and never trusts a field's type or size (fuzzed: openai_fuzz).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

enum class Api { kChat, kCompletions };  // /v1/chat/completions, /v1/completions
Api parse_api(const std::string& name);  // "chat" | "completions"; std::invalid_argument
const char* api_path(Api api);           // "/chat/completions" | "/completions"

// The URL to POST to. A base URL whose path already ends in the API's path is used as is;
// one ending in /v1 gets the API's path; any other gets /v1 and the API's path.
// "http://127.0.0.1:8000" -> "http://127.0.0.1:8000/v1/chat/completions".
std::string request_url(const std::string& base, Api api);

// Greedy (temperature 0) request for one prompt: a single user message for chat. Non-empty
// prompt_ids (completions only) are sent as the prompt instead of the text: OpenAI's array of
// token ids, in the served model's own tokenizer.
std::string request_body(Api api, const std::string& model, const std::string& prompt,
                         int max_tokens, const std::vector<std::int32_t>& prompt_ids = {});
// The text of choices[0] (message.content for chat, text for completions). Throws
// std::runtime_error("malformed response: ...") for a body that is not such a response.
std::string parse_completion(Api api, const std::string& body);

// ---- server side ----
constexpr int kMaxRequestTokens = 4096;  // largest max_tokens `serve` accepts
constexpr int kMaxStopStrings = 4;       // as OpenAI: `stop` holds at most 4 strings
constexpr int kMaxStopBytes = 256;       // longest stop string `serve` accepts
constexpr int kMaxPromptIds = 1 << 20;   // longest prompt of token ids `serve` accepts

struct CompletionRequest {
  std::string model;
  std::string prompt;  // completions: prompt; chat: the last user message's content
  // completions: a prompt sent as an array of token ids (then `prompt` is empty); backends
  // without a tokenizer of their own refuse it (require_text_prompt).
  std::vector<std::int64_t> prompt_ids;
  int max_tokens = 16;
  std::vector<std::string> stop;  // the completion ends before the first of these it holds
};
// Throws std::invalid_argument naming the problem (bad JSON, a missing or mistyped field,
// max_tokens outside 1..kMaxRequestTokens, stream: true, a stop that is not a non-empty
// string or an array of at most kMaxStopStrings of them, a prompt of token ids that is empty,
// longer than kMaxPromptIds or holds a value outside 0..2^31−1); the server answers it with 400.
CompletionRequest parse_request(Api api, const std::string& body);
// Throws std::invalid_argument (400) for a request whose prompt is token ids: `backend` (a kv
// model, a hop model) reads text.
void require_text_prompt(const CompletionRequest& request, const std::string& backend);
// Cuts `text` before the earliest occurrence of any of `stop`, as OpenAI does (the stop string
// is not returned). True when it cut.
bool cut_at_stop(std::string& text, const std::vector<std::string>& stop);
std::string completion_response(Api api, const std::string& id, const std::string& model,
                                const std::string& text, std::int64_t prompt_tokens,
                                std::int64_t completion_tokens);
// {"error": {"message": ..., "type": ...}}
std::string error_body(const std::string& message, const std::string& type);

}  // namespace posbias
