// JSON helpers the OpenAI wire format's readers and writers share (private to posbias_llm).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "posbias/core/json_read.h"

namespace posbias::wire {

// The body as a JSON object; std::invalid_argument "<what> is not valid JSON" or "... is not a
// JSON object" otherwise.
inline nlohmann::json parse_object(const std::string& body, const char* what) {
  nlohmann::json j = parse_json_or_discarded(body);
  if (j.is_discarded()) throw std::invalid_argument(std::string(what) + " is not valid JSON");
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " is not a JSON object");
  return j;
}

// Invalid UTF-8 (a user's template, a model's bytes) is replaced, never thrown on.
template <typename Json>
std::string dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace posbias::wire
