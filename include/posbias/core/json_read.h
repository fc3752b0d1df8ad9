// Reading JSON that a user, another tool or an earlier run wrote: every nlohmann parse in
// posbias goes through parse_json, which refuses nesting deeper than a limit while nlohmann
// reads. nlohmann parses and destroys iteratively, but copying, comparing with `==` on
// differing values, dump() and our own walks over a value recurse once per level, so a
// 100 000-deep array ("[[[[…") parsed without a limit crashes the first of them (stack
// overflow). A value parse_json returns is at most max_depth containers deep.
#pragma once

#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace posbias {

// Deep enough for every file posbias reads (its own results nest under 10 levels).
inline constexpr int kMaxJsonDepth = 128;

// A caller's own check while nlohmann reads (nlohmann's parser callback): return false to
// drop the value, throw to refuse the document.
using JsonGuard =
    std::function<bool(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed)>;

// The error for a document nested too deep: "<source>: JSON nested deeper than N levels".
class JsonTooDeep : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace json_read_detail {

inline JsonGuard depth_guard(const std::string& source, const JsonGuard& guard, int max_depth) {
  return [&source, &guard, max_depth](int depth, nlohmann::json::parse_event_t event,
                                      nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    // `depth` counts the containers around this one: the top level is 0.
    if ((event == E::object_start || event == E::array_start) && depth >= max_depth) {
      throw JsonTooDeep(source + ": JSON nested deeper than " + std::to_string(max_depth) +
                        " levels; nest its arrays and objects less deeply");
    }
    return guard ? guard(depth, event, parsed) : true;
  };
}

}  // namespace json_read_detail

// Parses `text` (from `source`, a file name or "the request body", named in errors). Text
// that is not JSON throws nlohmann::json::parse_error as nlohmann::json::parse does, so
// callers keep their own wording for it; nesting deeper than max_depth throws JsonTooDeep.
inline nlohmann::json parse_json(std::string_view text, const std::string& source,
                                 const JsonGuard& guard = nullptr, int max_depth = kMaxJsonDepth) {
  return nlohmann::json::parse(text, json_read_detail::depth_guard(source, guard, max_depth),
                               /*allow_exceptions=*/true, /*ignore_comments=*/false);
}

// The same, reading `in` to its end.
inline nlohmann::json parse_json(std::istream& in, const std::string& source,
                                 const JsonGuard& guard = nullptr, int max_depth = kMaxJsonDepth) {
  return nlohmann::json::parse(in, json_read_detail::depth_guard(source, guard, max_depth),
                               /*allow_exceptions=*/true, /*ignore_comments=*/false);
}

inline nlohmann::json parse_json(std::istream&& in, const std::string& source,
                                 const JsonGuard& guard = nullptr, int max_depth = kMaxJsonDepth) {
  return parse_json(in, source, guard, max_depth);
}

// For callers that test the result instead of catching: a discarded value
// (`is_discarded()`) for text that is not JSON or nests deeper than max_depth.
inline nlohmann::json parse_json_or_discarded(std::string_view text,
                                              int max_depth = kMaxJsonDepth) {
  const std::string source = "JSON text";
  try {
    return nlohmann::json::parse(text, json_read_detail::depth_guard(source, nullptr, max_depth),
                                 /*allow_exceptions=*/false, /*ignore_comments=*/false);
  } catch (const JsonTooDeep&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

}  // namespace posbias
