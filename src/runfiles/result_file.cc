#include "posbias/runfiles/result_file.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"

namespace posbias {

void result_error(const std::string& source, const std::string& what) {
  throw std::runtime_error("'" + source + "': " + what);
}

nlohmann::json parse_result_json(const std::string& text, const std::string& source) {
  try {
    return parse_json(text, source);
  } catch (const nlohmann::json::exception&) {
    result_error(source, "is not valid JSON");
  }
}

nlohmann::json read_result_json(const std::string& path) {
  return parse_result_json(read_bounded_file(path, kMaxSeedFileBytes, kMaxSeedFileName), path);
}

const nlohmann::json& result_field(const nlohmann::json& j, const std::string& key,
                                   const std::string& source, const char* kind,
                                   const std::string& parent) {
  if (!j.is_object() || !j.contains(key)) {
    result_error(source, "has no \"" + (parent.empty() ? key : parent + "." + key) +
                             "\" (is it a `posbias " + kind + "` result?)");
  }
  return j.at(key);
}

std::int64_t bounded_integer(const nlohmann::json& j, const std::string& source,
                             const std::string& name, std::int64_t low, std::int64_t high) {
  if (!j.is_number_integer() || j.get<std::int64_t>() < low || j.get<std::int64_t>() > high)
    result_error(source, fmt::format("{} must be an integer in {}..{}", name, low, high));
  return j.get<std::int64_t>();
}

}  // namespace posbias
