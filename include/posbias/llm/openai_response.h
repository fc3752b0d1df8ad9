// What `posbias serve` answers, in OpenAI's shapes: a completion or chat completion with its
// choices, usage and log-probabilities; the chunks of a streamed one (server-sent events); and
// the error body {"error": {"message", "type", "param", "code"}} of every 4xx and 5xx.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "posbias/llm/openai_request.h"

namespace posbias {

// One decoded token: its text (what it added to the completion's text), its log-probability,
// and the most likely alternatives at its step (text, log-probability), most likely first.
struct TokenLogprob {
  std::string token;
  double logprob = 0;
  std::vector<std::pair<std::string, double>> top;
};

// One choice as a backend decodes it.
struct Completion {
  std::string model, text;
  std::int64_t prompt_tokens = 0, completion_tokens = 0;
  std::string finish_reason = "stop";  // "stop" (a stop string or the model's end) or "length"
  std::vector<TokenLogprob> logprobs;  // filled when the request asked for them
};

// The whole answer: one choice per element of `choices` (index = position). `prompt_text` is
// what echo puts before each completion's text. Usage counts the prompt once and every
// choice's tokens, as OpenAI does.
std::string completion_response(Api api, const CompletionRequest& request, const std::string& id,
                                const std::vector<Completion>& choices,
                                const std::string& prompt_text = "");

// One streamed chunk (the JSON after "data: "). `delta` is the text since the last chunk,
// `logprobs` its tokens (shown when the request asked for them); `role` adds the chat's
// {"role": "assistant"} to the delta (its first chunk); a finish_reason closes the choice.
struct StreamDelta {
  int index = 0;
  std::string text;
  std::vector<TokenLogprob> logprobs;
  bool role = false;
  std::optional<std::string> finish_reason;
};
std::string stream_chunk(Api api, const CompletionRequest& request, const std::string& id,
                         const std::string& model, const StreamDelta& delta);
// The chunk after the last choice when stream_options.include_usage is set: no choices, the
// usage of them all.
std::string usage_chunk(Api api, const std::string& id, const std::string& model,
                        std::int64_t prompt_tokens, std::int64_t completion_tokens);

// {"error": {"message", "type", "param", "code"}}; an empty param or code is null.
std::string error_body(const std::string& message, const std::string& type,
                       const std::string& param = "", const std::string& code = "");

}  // namespace posbias
