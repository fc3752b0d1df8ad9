#include "posbias/llm/openai.h"

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/enum_names.h"
#include "posbias/core/json_read.h"

namespace posbias {
namespace {

using nlohmann::json;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

json parse_object(const std::string& body, const char* what) {
  json j = parse_json_or_discarded(body);
  if (j.is_discarded()) throw std::invalid_argument(std::string(what) + " is not valid JSON");
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " is not a JSON object");
  return j;
}

// Invalid UTF-8 (a user's template, a model's bytes) is replaced, never thrown on.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// "stop": a string or an array of at most kMaxStopStrings strings, none empty.
std::vector<std::string> parse_stop(const json& s) {
  const std::string rule = "stop must be a non-empty string or an array of at most " +
                           std::to_string(kMaxStopStrings) + " of them, each at most " +
                           std::to_string(kMaxStopBytes) + " bytes";
  const json list = s.is_array() ? s : json::array({s});
  if (list.size() > static_cast<std::size_t>(kMaxStopStrings)) throw std::invalid_argument(rule);
  std::vector<std::string> out;
  for (const json& e : list) {
    if (!e.is_string() || e.get<std::string>().empty() ||
        e.get<std::string>().size() > static_cast<std::size_t>(kMaxStopBytes)) {
      throw std::invalid_argument(rule);
    }
    out.push_back(e.get<std::string>());
  }
  return out;
}

}  // namespace

Api parse_api(const std::string& name) {
  constexpr EnumNames<Api, 2> kApiNames{{{Api::kChat, "chat"}, {Api::kCompletions, "completions"}}};
  return value_of(kApiNames, name, "--api");
}

const char* api_path(Api api) { return api == Api::kChat ? "/chat/completions" : "/completions"; }

std::string request_url(const std::string& base, Api api) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  if (ends_with(b, api_path(api))) return b;
  if (ends_with(b, "/v1")) return b + api_path(api);
  return b + "/v1" + api_path(api);
}

std::string request_body(Api api, const std::string& model, const std::string& prompt,
                         int max_tokens, const std::vector<std::int32_t>& prompt_ids) {
  json j{{"model", model}, {"max_tokens", max_tokens}, {"temperature", 0}};
  if (api == Api::kChat) {
    if (!prompt_ids.empty())
      throw std::invalid_argument("a prompt of token ids needs the completions API");
    j["messages"] = json::array({json{{"role", "user"}, {"content", prompt}}});
  } else if (!prompt_ids.empty()) {
    j["prompt"] = prompt_ids;
  } else {
    j["prompt"] = prompt;
  }
  return dump(j);
}

std::string parse_completion(Api api, const std::string& body) {
  json j;
  try {
    j = parse_object(body, "the response");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("malformed response: ") + e.what());
  }
  const auto fail = [](const std::string& why) {
    throw std::runtime_error("malformed response: " + why);
  };
  if (j.contains("error")) {
    const json& e = j["error"];
    std::string msg = e.is_object() && e.contains("message") && e["message"].is_string()
                          ? e["message"].get<std::string>()
                          : "an error";
    if (msg.size() > 200) msg.resize(200);
    fail("the endpoint answered " + msg);
  }
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) {
    fail("no choices");
  }
  const json& c = j["choices"][0];
  if (!c.is_object()) fail("choices[0] is not an object");
  if (api == Api::kChat) {
    if (!c.contains("message") || !c["message"].is_object()) fail("choices[0] has no message");
    const json& m = c["message"];
    if (!m.contains("content")) fail("the message has no content");
    if (m["content"].is_null()) return "";
    if (!m["content"].is_string()) fail("the message content is not a string");
    return m["content"].get<std::string>();
  }
  if (!c.contains("text") || !c["text"].is_string()) fail("choices[0] has no text");
  return c["text"].get<std::string>();
}

namespace {

// OpenAI's prompt of token ids: integers in 0..2^31−1, 1..kMaxPromptIds of them.
std::vector<std::int64_t> parse_prompt_ids(const json& p) {
  if (p.empty()) throw std::invalid_argument("prompt holds no token ids");
  if (p.size() > static_cast<std::size_t>(kMaxPromptIds))
    throw std::invalid_argument("prompt holds " + std::to_string(p.size()) +
                                " token ids; the most served is " + std::to_string(kMaxPromptIds));
  std::vector<std::int64_t> ids;
  ids.reserve(p.size());
  for (const json& v : p) {
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() && v.get<std::uint64_t>() > 0x7fffffffu) ||
        (!v.is_number_unsigned() &&
         (v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 0x7fffffff)))
      throw std::invalid_argument("prompt token ids must be integers in 0..2147483647, got " +
                                  v.dump().substr(0, 40));
    ids.push_back(v.get<std::int64_t>());
  }
  return ids;
}

}  // namespace

void require_text_prompt(const CompletionRequest& request, const std::string& backend) {
  if (!request.prompt_ids.empty())
    throw std::invalid_argument(backend + " reads a text prompt, not token ids");
}

CompletionRequest parse_request(Api api, const std::string& body) {
  const json j = parse_object(body, "the request body");
  CompletionRequest r;
  if (j.contains("model")) {
    if (!j["model"].is_string()) throw std::invalid_argument("model must be a string");
    r.model = j["model"].get<std::string>();
  }
  if (j.contains("stream") && !(j["stream"].is_boolean() && !j["stream"].get<bool>())) {
    throw std::invalid_argument("stream is not supported; send stream: false or leave it out");
  }
  if (j.contains("max_tokens") && !j["max_tokens"].is_null()) {
    const json& m = j["max_tokens"];
    if (!m.is_number_integer()) throw std::invalid_argument("max_tokens must be an integer");
    const std::int64_t v =
        m.is_number_unsigned()
            ? static_cast<std::int64_t>(std::min<std::uint64_t>(m.get<std::uint64_t>(), 1ull << 62))
            : m.get<std::int64_t>();
    if (v < 1 || v > kMaxRequestTokens) {
      throw std::invalid_argument("max_tokens must be in 1.." + std::to_string(kMaxRequestTokens) +
                                  ", got " + std::to_string(v));
    }
    r.max_tokens = static_cast<int>(v);
  }
  if (j.contains("stop") && !j["stop"].is_null()) r.stop = parse_stop(j["stop"]);
  if (api == Api::kCompletions) {
    if (!j.contains("prompt")) throw std::invalid_argument("prompt is missing");
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
      throw std::invalid_argument(
          "prompt must be a string, an array of one string, or an array of token ids");
    }
    return r;
  }
  if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].empty()) {
    throw std::invalid_argument("messages must be a non-empty array");
  }
  bool found = false;
  for (const json& m : j["messages"]) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string() || !m.contains("content") ||
        !m["content"].is_string()) {
      throw std::invalid_argument("every message needs a string role and a string content");
    }
    if (m["role"].get<std::string>() == "user") {
      r.prompt = m["content"].get<std::string>();
      found = true;
    }
  }
  if (!found) throw std::invalid_argument("messages has no user message");
  return r;
}

bool cut_at_stop(std::string& text, const std::vector<std::string>& stop) {
  std::size_t at = std::string::npos;
  for (const std::string& s : stop) at = std::min(at, text.find(s));
  if (at == std::string::npos) return false;
  text.resize(at);
  return true;
}

std::string completion_response(Api api, const std::string& id, const std::string& model,
                                const std::string& text, std::int64_t prompt_tokens,
                                std::int64_t completion_tokens) {
  json choice{{"index", 0}, {"finish_reason", "stop"}};
  if (api == Api::kChat) {
    choice["message"] = {{"role", "assistant"}, {"content", text}};
  } else {
    choice["text"] = text;
    choice["logprobs"] = nullptr;
  }
  const json j{{"id", id},
               {"object", api == Api::kChat ? "chat.completion" : "text_completion"},
               {"created", static_cast<std::int64_t>(std::time(nullptr))},
               {"model", model},
               {"choices", json::array({choice})},
               {"usage",
                {{"prompt_tokens", prompt_tokens},
                 {"completion_tokens", completion_tokens},
                 {"total_tokens", prompt_tokens + completion_tokens}}}};
  return dump(j);
}

std::string error_body(const std::string& message, const std::string& type) {
  return dump(json{{"error", {{"message", message}, {"type", type}}}});
}

}  // namespace posbias
