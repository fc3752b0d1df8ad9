// What `posbias serve` accepts: an OpenAI completions or chat request, read strictly. Every body
// from the network is untrusted: parsing throws one-line errors naming the field and never
// trusts a field's type or size (fuzzed: openai_fuzz).
//
// Accepted as OpenAI defines them: model, prompt (completions) or messages (chat), max_tokens
// (chat also max_completion_tokens), stop, n, stream, stream_options.include_usage,
// temperature, top_p, seed, logprobs (completions: 0..5 alternatives; chat: true, with
// top_logprobs 0..20), echo (completions), user. Options that would change the answer in a
// way serve does not implement (presence_penalty or frequency_penalty other than 0, a non-empty
// logit_bias, best_of above 1, a suffix, tools, functions, a response_format other than text)
// and fields OpenAI does not define are refused with 400 naming the field (RequestError).
//
// One difference from OpenAI, on purpose: temperature defaults to 0 (greedy decoding, the same
// answer every time) where OpenAI's default is 1. Send temperature to sample.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/llm/openai.h"

namespace posbias {

constexpr int kMaxRequestTokens = 4096;    // largest max_tokens `serve` accepts
constexpr int kMaxStopStrings = 4;         // as OpenAI: `stop` holds at most 4 strings
constexpr int kMaxStopBytes = 256;         // longest stop string `serve` accepts
constexpr int kMaxPromptIds = 1 << 20;     // longest prompt of token ids `serve` accepts
constexpr int kMaxChoices = 16;            // largest n `serve` accepts
constexpr int kMaxCompletionLogprobs = 5;  // completions' logprobs: 0..5, as OpenAI
constexpr int kMaxChatTopLogprobs = 20;    // chat's top_logprobs: 0..20, as OpenAI

struct CompletionRequest {
  std::string model;   // empty: the server's only model (a server of several refuses it)
  std::string prompt;  // completions: prompt; chat: the last user message's content
  // completions: a prompt sent as an array of token ids (then `prompt` is empty); backends
  // without a tokenizer of their own refuse it (require_text_prompt).
  std::vector<std::int64_t> prompt_ids;
  int max_tokens = 16;
  std::vector<std::string> stop;      // the completion ends before the first of these it holds
  int n = 1;                          // choices, 1..kMaxChoices
  bool stream = false;                // answer with server-sent events
  bool include_usage = false;         // stream_options.include_usage: a last chunk with usage
  double temperature = 0;             // 0..2; 0 = greedy
  double top_p = 1;                   // (0, 1]: sample from the smallest set holding this mass
  std::optional<std::uint64_t> seed;  // sampling's seed; choice k uses seed + k
  // -1: no log-probabilities; else each decoded token's log-probability and this many of the
  // most likely alternatives at its step.
  int logprobs = -1;
  bool echo = false;  // completions: the prompt's text precedes the completion's
};

// A request refused for one field: the server answers 400 with `param` and `code` in OpenAI's
// error body ("unsupported_parameter", "unrecognized_argument", or empty for a bad value).
class RequestError : public std::invalid_argument {
 public:
  RequestError(const std::string& message, std::string field, std::string error_code = "")
      : std::invalid_argument(message), param(std::move(field)), code(std::move(error_code)) {}
  std::string param, code;
};

// Throws RequestError naming the field (bad JSON has an empty param): a missing or mistyped
// field, max_tokens outside 1..kMaxRequestTokens, n outside 1..kMaxChoices, a stop that is not
// a non-empty string or an array of at most kMaxStopStrings of them, a prompt of token ids
// that is empty, longer than kMaxPromptIds or holds a value outside 0..2^31−1, an option serve
// does not implement, or a field OpenAI does not define.
CompletionRequest parse_request(Api api, const std::string& body);
// Throws std::invalid_argument (400) for a request whose prompt is token ids: `backend` (a kv
// model, a hop model) reads text.
void require_text_prompt(const CompletionRequest& request, const std::string& backend);
// Cuts `text` before the earliest occurrence of any of `stop`, as OpenAI does (the stop string
// is not returned). True when it cut.
bool cut_at_stop(std::string& text, const std::vector<std::string>& stop);

}  // namespace posbias
