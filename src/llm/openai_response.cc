#include "posbias/llm/openai_response.h"

#include <ctime>
#include <nlohmann/json.hpp>

#include "wire_json.h"

namespace posbias {
namespace {

// Insertion-ordered: top_logprobs list the most likely first, as OpenAI writes them.
using ordered_json = nlohmann::ordered_json;

ordered_json utf8_bytes(const std::string& s) {
  ordered_json out = ordered_json::array();
  for (const char c : s) out.push_back(static_cast<int>(static_cast<unsigned char>(c)));
  return out;
}

// Completions' legacy shape: parallel arrays, offsets into the returned text.
ordered_json completions_logprobs(const std::vector<TokenLogprob>& tokens, int top,
                                  std::size_t offset) {
  ordered_json j{{"tokens", ordered_json::array()},
                 {"token_logprobs", ordered_json::array()},
                 {"top_logprobs", top > 0 ? ordered_json::array() : ordered_json(nullptr)},
                 {"text_offset", ordered_json::array()}};
  for (const TokenLogprob& t : tokens) {
    j["tokens"].push_back(t.token);
    j["token_logprobs"].push_back(t.logprob);
    j["text_offset"].push_back(offset);
    offset += t.token.size();
    if (top > 0) {
      ordered_json alternatives = ordered_json::object();
      for (const auto& [token, logprob] : t.top) alternatives[token] = logprob;
      j["top_logprobs"].push_back(alternatives);
    }
  }
  return j;
}

// Chat's shape: one object per token, with its UTF-8 bytes.
ordered_json chat_logprobs(const std::vector<TokenLogprob>& tokens) {
  ordered_json content = ordered_json::array();
  for (const TokenLogprob& t : tokens) {
    ordered_json top = ordered_json::array();
    for (const auto& [token, logprob] : t.top) {
      top.push_back({{"token", token}, {"logprob", logprob}, {"bytes", utf8_bytes(token)}});
    }
    content.push_back({{"token", t.token},
                       {"logprob", t.logprob},
                       {"bytes", utf8_bytes(t.token)},
                       {"top_logprobs", top}});
  }
  return ordered_json{{"content", content}};
}

ordered_json logprobs_of(Api api, const CompletionRequest& request,
                         const std::vector<TokenLogprob>& tokens, std::size_t offset) {
  if (request.logprobs < 0) return nullptr;
  return api == Api::kChat ? chat_logprobs(tokens)
                           : completions_logprobs(tokens, request.logprobs, offset);
}

ordered_json usage(std::int64_t prompt_tokens, std::int64_t completion_tokens) {
  return {{"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"total_tokens", prompt_tokens + completion_tokens}};
}

ordered_json envelope(const std::string& id, const char* object, const std::string& model) {
  return {{"id", id},
          {"object", object},
          {"created", static_cast<std::int64_t>(std::time(nullptr))},
          {"model", model}};
}

}  // namespace

std::string completion_response(Api api, const CompletionRequest& request, const std::string& id,
                                const std::vector<Completion>& choices,
                                const std::string& prompt_text) {
  ordered_json list = ordered_json::array();
  std::int64_t completion_tokens = 0;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const Completion& c = choices[i];
    completion_tokens += c.completion_tokens;
    ordered_json choice{{"index", i}, {"finish_reason", c.finish_reason}};
    if (api == Api::kChat) {
      choice["message"] = {{"role", "assistant"}, {"content", c.text}};
      choice["logprobs"] = logprobs_of(api, request, c.logprobs, 0);
    } else {
      const std::string prefix = request.echo ? prompt_text : "";
      choice["text"] = prefix + c.text;
      choice["logprobs"] = logprobs_of(api, request, c.logprobs, prefix.size());
    }
    list.push_back(std::move(choice));
  }
  const std::string model = choices.empty() ? request.model : choices.front().model;
  ordered_json j = envelope(id, api == Api::kChat ? "chat.completion" : "text_completion", model);
  j["choices"] = std::move(list);
  j["usage"] = usage(choices.empty() ? 0 : choices.front().prompt_tokens, completion_tokens);
  return wire::dump(j);
}

std::string stream_chunk(Api api, const CompletionRequest& request, const std::string& id,
                         const std::string& model, const StreamDelta& delta) {
  ordered_json choice{
      {"index", delta.index},
      {"logprobs", delta.logprobs.empty() ? ordered_json(nullptr)
                                          : logprobs_of(api, request, delta.logprobs, 0)},
      {"finish_reason",
       delta.finish_reason ? ordered_json(*delta.finish_reason) : ordered_json(nullptr)}};
  if (api == Api::kChat) {
    ordered_json d = ordered_json::object();
    if (delta.role) d["role"] = "assistant";
    if (!delta.text.empty() || delta.role) d["content"] = delta.text;
    choice["delta"] = std::move(d);
  } else {
    choice["text"] = delta.text;
  }
  ordered_json j =
      envelope(id, api == Api::kChat ? "chat.completion.chunk" : "text_completion", model);
  j["choices"] = ordered_json::array({std::move(choice)});
  if (request.include_usage) j["usage"] = nullptr;
  return wire::dump(j);
}

std::string usage_chunk(Api api, const std::string& id, const std::string& model,
                        std::int64_t prompt_tokens, std::int64_t completion_tokens) {
  ordered_json j =
      envelope(id, api == Api::kChat ? "chat.completion.chunk" : "text_completion", model);
  j["choices"] = ordered_json::array();
  j["usage"] = usage(prompt_tokens, completion_tokens);
  return wire::dump(j);
}

std::string error_body(const std::string& message, const std::string& type,
                       const std::string& param, const std::string& code) {
  const auto or_null = [](const std::string& s) {
    return s.empty() ? ordered_json(nullptr) : ordered_json(s);
  };
  return wire::dump(ordered_json{{"error",
                                  {{"message", message},
                                   {"type", type},
                                   {"param", or_null(param)},
                                   {"code", or_null(code)}}}});
}

}  // namespace posbias
