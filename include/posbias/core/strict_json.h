// Reading an untrusted JSON file strictly, and naming its parts in one-line messages: a parse
// that refuses duplicate keys (readers disagree on which one wins), a value cut short, and a
// name quoted with its control bytes escaped. Used by the Hugging Face readers (config.json,
// safetensors headers, sharded checkpoints' index).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace posbias {

// parse_json (json_read.h) with a duplicate key refused: std::runtime_error
// "SOURCE: duplicate key 'k' (which one wins depends on the reader)", or
// "SOURCE: not valid JSON: ..." (nlohmann's reason, cut at 200 bytes).
nlohmann::json parse_json_unique_keys(std::string_view text, const std::string& source,
                                      int max_depth);
// The value as JSON text, cut at `max_bytes` with "..." (invalid UTF-8 replaced).
std::string brief_json(const nlohmann::json& value, std::size_t max_bytes = 60);
// 'name' with control bytes escaped (printable.h), cut at 80 bytes with "...".
std::string quoted_name(std::string_view name);

}  // namespace posbias
