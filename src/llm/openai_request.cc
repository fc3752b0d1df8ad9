#include "posbias/llm/openai_request.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

#include "wire_json.h"

namespace posbias {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& field, const std::string& message,
                         const std::string& code = "") {
  throw RequestError(message, field, code);
}

// The fields OpenAI defines that serve reads or checks: both endpoints', then each one's own.
// clang-format off
constexpr std::array<std::string_view, 14> kSharedFields{
    "model", "max_tokens", "stop", "n", "stream", "stream_options", "temperature", "top_p",
    "seed", "logprobs", "user", "presence_penalty", "frequency_penalty", "logit_bias"};
constexpr std::array<std::string_view, 3> kCompletionFields{"prompt", "echo", "best_of"};
constexpr std::array<std::string_view, 9> kChatFields{
    "messages", "max_completion_tokens", "top_logprobs", "response_format", "tools",
    "tool_choice", "functions", "function_call", "parallel_tool_calls"};
// clang-format on

bool defined(Api api, std::string_view key) {
  const auto has = [key](const auto& fields) {
    return std::find(fields.begin(), fields.end(), key) != fields.end();
  };
  return has(kSharedFields) || (api == Api::kChat ? has(kChatFields) : has(kCompletionFields));
}

bool present(const json& j, const char* key) { return j.contains(key) && !j[key].is_null(); }

// An integer field in lo..hi.
std::int64_t integer(const json& j, const char* key, std::int64_t lo, std::int64_t hi) {
  const json& v = j[key];
  if (!v.is_number_integer()) refuse(key, std::string(key) + " must be an integer");
  const std::int64_t x =
      v.is_number_unsigned()
          ? static_cast<std::int64_t>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ull << 62))
          : v.get<std::int64_t>();
  if (x < lo || x > hi) {
    refuse(key, std::string(key) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                    ", got " + std::to_string(x));
  }
  return x;
}

double number(const json& j, const char* key, double lo, double hi) {
  const json& v = j[key];
  if (!v.is_number()) refuse(key, std::string(key) + " must be a number");
  const double x = v.get<double>();
  if (!(x >= lo && x <= hi)) {
    refuse(key, std::string(key) + " must be in [" + json(lo).dump() + ", " + json(hi).dump() +
                    "], got " + v.dump());
  }
  return x;
}

bool boolean(const json& j, const char* key) {
  if (!j[key].is_boolean()) refuse(key, std::string(key) + " must be true or false");
  return j[key].get<bool>();
}

// "stop": a string or an array of at most kMaxStopStrings strings, none empty.
std::vector<std::string> parse_stop(const json& s) {
  const std::string rule = "stop must be a non-empty string or an array of at most " +
                           std::to_string(kMaxStopStrings) + " of them, each at most " +
                           std::to_string(kMaxStopBytes) + " bytes";
  const json list = s.is_array() ? s : json::array({s});
  if (list.size() > static_cast<std::size_t>(kMaxStopStrings)) refuse("stop", rule);
  std::vector<std::string> out;
  for (const json& e : list) {
    if (!e.is_string() || e.get<std::string>().empty() ||
        e.get<std::string>().size() > static_cast<std::size_t>(kMaxStopBytes)) {
      refuse("stop", rule);
    }
    out.push_back(e.get<std::string>());
  }
  return out;
}

// OpenAI's prompt of token ids: integers in 0..2^31−1, 1..kMaxPromptIds of them.
std::vector<std::int64_t> parse_prompt_ids(const json& p) {
  if (p.empty()) refuse("prompt", "prompt holds no token ids");
  if (p.size() > static_cast<std::size_t>(kMaxPromptIds))
    refuse("prompt", "prompt holds " + std::to_string(p.size()) +
                         " token ids; the most served is " + std::to_string(kMaxPromptIds));
  std::vector<std::int64_t> ids;
  ids.reserve(p.size());
  for (const json& v : p) {
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() && v.get<std::uint64_t>() > 0x7fffffffu) ||
        (!v.is_number_unsigned() &&
         (v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 0x7fffffff)))
      refuse("prompt",
             "prompt token ids must be integers in 0..2147483647, got " + v.dump().substr(0, 40));
    ids.push_back(v.get<std::int64_t>());
  }
  return ids;
}

// Fields OpenAI defines whose effect serve does not implement: accepted only at their neutral
// value, refused by name otherwise.
void refuse_unimplemented(const json& j) {
  const auto unsupported = [](const char* key, const std::string& why) {
    refuse(key, std::string(key) + " is not supported by posbias serve (" + why + ")",
           "unsupported_parameter");
  };
  for (const char* key : {"presence_penalty", "frequency_penalty"}) {
    if (present(j, key) && !(j[key].is_number() && j[key].get<double>() == 0))
      unsupported(key, "send 0 or leave it out");
  }
  if (present(j, "logit_bias") && !(j["logit_bias"].is_object() && j["logit_bias"].empty()))
    unsupported("logit_bias", "send {} or leave it out");
  if (present(j, "best_of") && !(j["best_of"].is_number_integer() && j["best_of"] == 1))
    unsupported("best_of", "send 1 or leave it out");
  for (const char* key : {"tools", "functions"}) {
    if (present(j, key) && !(j[key].is_array() && j[key].empty()))
      unsupported(key, "served models do not call tools");
  }
  for (const char* key : {"tool_choice", "function_call", "parallel_tool_calls"}) {
    if (present(j, key) && !(j[key].is_string() && j[key] == "none") && !j[key].is_boolean())
      unsupported(key, "served models do not call tools");
  }
  if (present(j, "response_format") &&
      !(j["response_format"].is_object() && j["response_format"].value("type", "") == "text"))
    unsupported("response_format", "only {\"type\": \"text\"}");
}

void parse_sampling(const json& j, CompletionRequest& r) {
  if (present(j, "n")) r.n = static_cast<int>(integer(j, "n", 1, kMaxChoices));
  if (present(j, "temperature")) r.temperature = number(j, "temperature", 0, 2);
  if (present(j, "top_p")) {
    r.top_p = number(j, "top_p", 0, 1);
    if (r.top_p <= 0) refuse("top_p", "top_p must be in (0, 1], got 0");
  }
  if (present(j, "seed")) {
    if (!j["seed"].is_number_integer()) refuse("seed", "seed must be an integer");
    r.seed = j["seed"].is_number_unsigned()
                 ? j["seed"].get<std::uint64_t>()
                 : static_cast<std::uint64_t>(j["seed"].get<std::int64_t>());
  }
  if (present(j, "stream")) r.stream = boolean(j, "stream");
  if (present(j, "stream_options")) {
    const json& s = j["stream_options"];
    if (!r.stream) refuse("stream_options", "stream_options needs stream: true");
    if (!s.is_object()) refuse("stream_options", "stream_options must be an object");
    for (const auto& [key, value] : s.items()) {
      if (key != "include_usage")
        refuse("stream_options." + key, "stream_options." + key + " is not defined",
               "unrecognized_argument");
      if (!value.is_boolean())
        refuse("stream_options.include_usage", "stream_options.include_usage must be a boolean");
      r.include_usage = value.get<bool>();
    }
  }
  if (present(j, "user") && !j["user"].is_string()) refuse("user", "user must be a string");
}

void parse_completions_fields(const json& j, CompletionRequest& r) {
  if (!j.contains("prompt")) refuse("prompt", "prompt is missing");
  const json& p = j["prompt"];
  if (p.is_string()) {
    r.prompt = p.get<std::string>();
  } else if (p.is_array() && p.size() == 1 && p[0].is_string()) {
    r.prompt = p[0].get<std::string>();
  } else if (p.is_array() && !p.empty() && p[0].is_number()) {
    r.prompt_ids = parse_prompt_ids(p);
  } else if (p.is_array() && p.size() == 1 && p[0].is_array()) {
    r.prompt_ids = parse_prompt_ids(p[0]);
  } else {
    refuse("prompt", "prompt must be a string, an array of one string, or an array of token ids");
  }
  if (present(j, "logprobs")) {
    r.logprobs = static_cast<int>(integer(j, "logprobs", 0, kMaxCompletionLogprobs));
  }
  if (present(j, "echo")) r.echo = boolean(j, "echo");
  if (r.echo && r.logprobs >= 0) {
    refuse("echo",
           "echo with logprobs is not supported by posbias serve (the prompt's "
           "log-probabilities are not computed); send one of them",
           "unsupported_parameter");
  }
}

void parse_chat_fields(const json& j, CompletionRequest& r) {
  if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].empty()) {
    refuse("messages", "messages must be a non-empty array");
  }
  bool found = false;
  for (const json& m : j["messages"]) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content") ||
        !m["content"].is_string()) {
      refuse("messages", "every message needs a string role and a string content");
    }
    if (m["role"].get<std::string>() == "user") {
      r.prompt = m["content"].get<std::string>();
      found = true;
    }
  }
  if (!found) refuse("messages", "messages has no user message");
  if (present(j, "max_completion_tokens")) {
    r.max_tokens = static_cast<int>(integer(j, "max_completion_tokens", 1, kMaxRequestTokens));
  }
  const bool logprobs = present(j, "logprobs") && boolean(j, "logprobs");
  if (present(j, "top_logprobs")) {
    if (!logprobs) refuse("top_logprobs", "top_logprobs needs logprobs: true");
    r.logprobs = static_cast<int>(integer(j, "top_logprobs", 0, kMaxChatTopLogprobs));
  } else if (logprobs) {
    r.logprobs = 0;
  }
}

}  // namespace

void require_text_prompt(const CompletionRequest& request, const std::string& backend) {
  if (!request.prompt_ids.empty())
    throw std::invalid_argument(backend + " reads a text prompt, not token ids");
}

CompletionRequest parse_request(Api api, const std::string& body) {
  json j;
  try {
    j = wire::parse_object(body, "the request body");
  } catch (const std::invalid_argument& e) {
    refuse("", e.what());
  }
  for (const auto& [key, value] : j.items()) {
    if (!defined(api, key)) {
      refuse(key.substr(0, 64), "unrecognized request argument: " + key.substr(0, 64),
             "unrecognized_argument");
    }
  }
  CompletionRequest r;
  if (present(j, "model")) {
    if (!j["model"].is_string()) refuse("model", "model must be a string");
    r.model = j["model"].get<std::string>();
  }
  if (present(j, "max_tokens")) {
    r.max_tokens = static_cast<int>(integer(j, "max_tokens", 1, kMaxRequestTokens));
  }
  if (present(j, "stop")) r.stop = parse_stop(j["stop"]);
  refuse_unimplemented(j);
  parse_sampling(j, r);
  if (api == Api::kCompletions) {
    parse_completions_fields(j, r);
  } else {
    parse_chat_fields(j, r);
  }
  return r;
}

bool cut_at_stop(std::string& text, const std::vector<std::string>& stop) {
  std::size_t at = std::string::npos;
  for (const std::string& s : stop) at = std::min(at, text.find(s));
  if (at == std::string::npos) return false;
  text.resize(at);
  return true;
}

}  // namespace posbias
