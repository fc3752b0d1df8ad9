// A query's token position as a flag spells it (-q, --query): a 0-based position
// (position_base.h), or "last" for the last token, which leaves the position unset.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "posbias/core/parse.h"

namespace posbias {

inline constexpr std::string_view kLastQuery = "last";

// The query flag's type as --help shows it ("POS|last") and its help.
inline std::string query_position_type() { return "POS|" + std::string(kLastQuery); }
inline std::string query_position_help() {
  return "the query's position, 0..L-1 (positions count from 0), or " + std::string(kLastQuery);
}

// "last" → none; else an integer >= 0, "`flag` must be in 0..., got X" otherwise.
inline std::optional<std::int64_t> parse_query_position(const std::string& text,
                                                        const std::string& flag) {
  if (text == kLastQuery) return std::nullopt;
  return parse_integer_in(text, flag, 0, std::numeric_limits<std::int64_t>::max());
}

// The text that parses back to `position`: "last" for none.
inline std::string query_position_text(const std::optional<std::int64_t>& position) {
  return position ? std::to_string(*position) : std::string(kLastQuery);
}

}  // namespace posbias
