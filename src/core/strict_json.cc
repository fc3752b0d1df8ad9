#include "posbias/core/strict_json.h"

#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "posbias/core/json_read.h"
#include "posbias/core/printable.h"

namespace posbias {

using nlohmann::json;

nlohmann::json parse_json_unique_keys(std::string_view text, const std::string& source,
                                      int max_depth) {
  std::vector<std::unordered_set<std::string>> keys;  // one set per open object
  const auto guard = [&](int, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    if (event == E::object_start) keys.emplace_back();
    if (event == E::object_end && !keys.empty()) keys.pop_back();
    if (event == E::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
      throw std::runtime_error(source + ": duplicate key " +
                               quoted_name(parsed.get<std::string>()) +
                               " (which one wins depends on the reader)");
    return true;
  };
  try {
    return parse_json(text, source, guard, max_depth);
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (what.size() > 200) what = what.substr(0, 200) + "...";
    throw std::runtime_error(source + ": not valid JSON: " + printable(what));
  }
}

std::string brief_json(const json& value, std::size_t max_bytes) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > max_bytes) s = s.substr(0, max_bytes) + "...";
  return s;
}

std::string quoted_name(std::string_view name) {
  constexpr std::size_t kMaxShown = 80;
  std::string out = "'";
  out += printable(name.substr(0, kMaxShown));
  out += name.size() > kMaxShown ? "...'" : "'";
  return out;
}

}  // namespace posbias
