#include "posbias/llm/openai.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "posbias/core/enum_names.h"
#include "posbias/core/json_read.h"
#include "wire_json.h"

namespace posbias {
namespace {

using nlohmann::json;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

constexpr EnumNames<Api, 2> kApiNames{{{Api::kChat, "chat"}, {Api::kCompletions, "completions"}}};

}  // namespace

Api parse_api(const std::string& name) { return value_of(kApiNames, name, "--api"); }

std::string to_string(Api api) { return std::string(name_of(kApiNames, api)); }

const char* api_path(Api api) { return api == Api::kChat ? "/chat/completions" : "/completions"; }

std::string request_url(const std::string& base, Api api) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  if (ends_with(b, api_path(api))) return b;
  if (ends_with(b, "/v1")) return b + api_path(api);
  return b + "/v1" + api_path(api);
}

std::string request_body(Api api, const std::string& model, const std::string& prompt,
                         int max_tokens, const std::vector<std::int32_t>& prompt_ids,
                         const RequestOptions& options) {
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
  if (options.stream) {
    j["stream"] = true;
    j["stream_options"] = {{"include_usage", true}};
  }
  // Completions: the number of alternatives per token (0: the chosen token's only); chat: a
  // switch, with top_logprobs left out (none).
  if (options.logprobs) j["logprobs"] = api == Api::kChat ? json(true) : json(0);
  return wire::dump(j);
}

namespace {

[[noreturn]] void malformed(const std::string& why) {
  throw std::runtime_error("malformed response: " + why);
}

// An {"error": {...}} body or event is the endpoint's error, in one line of at most 200 bytes.
void check_error(const json& j) {
  if (!j.contains("error") || j["error"].is_null()) return;
  const json& e = j["error"];
  std::string msg = e.is_object() && e.contains("message") && e["message"].is_string()
                        ? e["message"].get<std::string>()
                        : "an error";
  if (msg.size() > 200) msg.resize(200);
  for (char& c : msg) c = (c == '\n' || c == '\r') ? ' ' : c;
  malformed("the endpoint answered " + msg);
}

// choices[0] of one body, or of every chunk of a stream, gathered: the text concatenated, the
// per-token log-probabilities summed. The sum stands only when every part that carries text
// carried its log-probabilities: a part without them would leave tokens out of it.
class Gather {
 public:
  explicit Gather(Api api) : api_(api) {}

  // One plain body.
  void body(const json& j) {
    check_error(j);
    usage(j);
    if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) {
      malformed("no choices");
    }
    const json& c = j["choices"][0];
    if (!c.is_object()) malformed("choices[0] is not an object");
    if (api_ == Api::kChat) {
      if (!c.contains("message") || !c["message"].is_object())
        malformed("choices[0] has no message");
      const json& m = c["message"];
      if (!m.contains("content")) malformed("the message has no content");
      if (!m["content"].is_null() && !m["content"].is_string()) {
        malformed("the message content is not a string");
      }
      part(m["content"].is_null() ? "" : m["content"].get<std::string>(), c);
    } else {
      if (!c.contains("text") || !c["text"].is_string()) malformed("choices[0] has no text");
      part(c["text"].get<std::string>(), c);
    }
  }

  // One event of a stream: a chunk whose choice of index 0 (if any) adds its delta.
  void chunk(const json& j) {
    check_error(j);
    usage(j);
    if (!j.contains("choices") || j["choices"].is_null()) return;  // e.g. the usage chunk
    if (!j["choices"].is_array()) malformed("a chunk's choices is not an array");
    const json& choices = j["choices"];
    for (std::size_t i = 0; i < choices.size(); ++i) {
      const json& c = choices[i];
      if (!c.is_object()) malformed("a chunk's choice is not an object");
      const bool first =
          c.contains("index") ? c["index"].is_number_integer() && c["index"] == 0 : i == 0;
      if (!first) continue;
      const json* text = nullptr;
      if (api_ == Api::kChat) {
        if (c.contains("delta") && !c["delta"].is_null()) {
          if (!c["delta"].is_object()) malformed("a chunk's delta is not an object");
          if (c["delta"].contains("content")) text = &c["delta"]["content"];
        }
      } else if (c.contains("text")) {
        text = &c["text"];
      }
      if (text != nullptr && !text->is_null() && !text->is_string()) {
        malformed("a chunk's text is not a string");
      }
      part(text != nullptr && text->is_string() ? text->get<std::string>() : "", c);
    }
  }

  ParsedCompletion finish() {
    if (parts_ == 0) malformed("the stream holds no choice");
    ParsedCompletion out;
    out.text = std::move(text_);
    if (with_logprobs_ && !missing_logprobs_) {
      out.logprob = sum_;
      out.tokens = tokens_;
    } else {
      out.tokens = usage_tokens_;
    }
    return out;
  }

 private:
  void part(const std::string& text, const json& choice) {
    ++parts_;
    text_ += text;
    if (!logprobs(choice) && !text.empty()) missing_logprobs_ = true;
  }

  // Adds the choice's per-token log-probabilities; false when it carries none (null).
  bool logprobs(const json& c) {
    if (!c.contains("logprobs") || c["logprobs"].is_null()) return false;
    const json& lp = c["logprobs"];
    if (!lp.is_object()) malformed("logprobs is not an object");
    const char* list = api_ == Api::kChat ? "content" : "token_logprobs";
    if (!lp.contains(list) || lp[list].is_null()) return false;
    if (!lp[list].is_array()) malformed(std::string("logprobs.") + list + " is not an array");
    double sum = 0;
    for (const json& t : lp[list]) {
      const json* v = &t;
      if (api_ == Api::kChat) {
        if (!t.is_object() || !t.contains("logprob"))
          malformed("a logprobs.content entry has no logprob");
        v = &t["logprob"];
      }
      if (v->is_null()) return false;  // a token without one: the sum would leave it out
      if (!v->is_number() || !std::isfinite(v->get<double>())) {
        malformed("a token's log-probability is not a finite number");
      }
      sum += v->get<double>();
    }
    sum_ += sum;
    tokens_ += static_cast<std::int64_t>(lp[list].size());
    with_logprobs_ = true;
    return true;
  }

  void usage(const json& j) {
    if (!j.contains("usage") || !j["usage"].is_object()) return;
    const json& u = j["usage"];
    if (u.contains("completion_tokens") && u["completion_tokens"].is_number_integer() &&
        u["completion_tokens"].get<std::int64_t>() >= 0) {
      usage_tokens_ = u["completion_tokens"].get<std::int64_t>();
    }
  }

  Api api_;
  std::string text_;
  std::int64_t parts_ = 0;
  bool with_logprobs_ = false, missing_logprobs_ = false;
  double sum_ = 0;
  std::int64_t tokens_ = 0;
  std::optional<std::int64_t> usage_tokens_;
};

bool starts_with(std::string_view s, std::string_view head) {
  return s.substr(0, head.size()) == head;
}

// A server-sent event stream begins with an event field or a comment, after blank lines.
bool is_event_stream(std::string_view body) {
  if (starts_with(body, "\xEF\xBB\xBF")) body.remove_prefix(3);  // a BOM, as the spec allows
  while (!body.empty() && (body.front() == '\n' || body.front() == '\r')) body.remove_prefix(1);
  for (std::string_view field : {"data:", "event:", "id:", "retry:", ":"}) {
    if (starts_with(body, field)) return true;
  }
  return false;
}

// The data of each event of a server-sent event stream (WHATWG HTML, "Parsing an event
// stream"): lines end at CRLF, LF or CR; an event is its `data:` lines joined by LF, ended by a
// blank line; comments and other fields are skipped. The last event counts without its blank
// line, so a body ending in `data: [DONE]` is complete.
std::vector<std::string> event_data(std::string_view body) {
  if (starts_with(body, "\xEF\xBB\xBF")) body.remove_prefix(3);
  std::vector<std::string> events;
  std::string data;
  bool has_data = false;
  std::size_t i = 0;
  while (i <= body.size()) {
    std::size_t end = body.find_first_of("\r\n", i);
    if (end == std::string_view::npos) end = body.size();
    const std::string_view line = body.substr(i, end - i);
    if (line.empty()) {
      if (has_data) events.push_back(std::move(data));
      data.clear();
      has_data = false;
    } else if (line.front() != ':') {
      const std::size_t colon = line.find(':');
      const std::string_view field = line.substr(0, colon);
      std::string_view value =
          colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
      if (starts_with(value, " ")) value.remove_prefix(1);
      if (field == "data") {
        if (has_data) data += '\n';
        data.append(value);
        has_data = true;
      }
    }
    if (end == body.size()) break;
    i = end + (body.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
  if (has_data) events.push_back(std::move(data));
  return events;
}

ParsedCompletion parse_stream(Api api, const std::string& body) {
  Gather gather(api);
  bool done = false;
  for (const std::string& data : event_data(body)) {
    if (data == "[DONE]") {
      done = true;
      break;
    }
    json j;
    try {
      j = wire::parse_object(data, "a stream event");
    } catch (const std::invalid_argument& e) {
      malformed(e.what());
    }
    gather.chunk(j);
  }
  if (!done) malformed("the stream ends without data: [DONE] (cut short)");
  return gather.finish();
}

}  // namespace

ParsedCompletion parse_completion(Api api, const std::string& body) {
  if (is_event_stream(body)) return parse_stream(api, body);
  json j;
  try {
    j = wire::parse_object(body, "the response");
  } catch (const std::invalid_argument& e) {
    malformed(e.what());
  }
  Gather gather(api);
  gather.body(j);
  return gather.finish();
}

}  // namespace posbias
