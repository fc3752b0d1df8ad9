// One base for positions. Every position a command prints or takes is a 0-based token index:
// position 0 is the first token, and the query of an L-token profile is position L − 1. The
// theory's formulas number keys j = 1..q (r_1, p_L); a command shows the key j as position
// j − 1. A JSON result that holds positions says "position_base": 0; a file written before
// that key existed is 1-based, and its reader moves its positions down by one on read.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

inline constexpr std::int64_t kPositionBase = 0;
// The key a result file's base is written under.
inline constexpr const char* kPositionBaseKey = "position_base";
// The base of a result file without "position_base" (every file written before it).
inline constexpr std::int64_t kUnmarkedPositionBase = 1;

// How far a file's positions sit above kPositionBase (1 for a 1-based file, else 0), and sets
// `base` to kPositionBase; std::invalid_argument naming `what` for a base other than 0 or 1.
inline std::int64_t rebase_positions(std::int64_t& base, const std::string& what) {
  if (base != 0 && base != 1)
    throw std::invalid_argument(what + " must be 0 or 1, got " + std::to_string(base));
  const std::int64_t shift = base - kPositionBase;
  base = kPositionBase;
  return shift;
}

// The row of a record's "position_base" (its writer sets kPositionBase; its reader starts from
// kUnmarkedPositionBase, so a file without the key reads as 1-based, and calls
// rebase_positions).
template <class S>
FieldRow<S> position_base_field(std::int64_t S::*member) {
  return field(kPositionBaseKey, member,
               "the first token's position: 0 (a file without the key is 1-based)");
}

// A record's strict read (fields_from_json) from a file that may predate "position_base": the
// record starts from kUnmarkedPositionBase, so a file without the key reads as 1-based, and
// comes back at kPositionBase with the shift its positions still need (rebase_positions), which
// the caller subtracts from each position field.
template <class S>
std::pair<S, std::int64_t> read_positioned(const std::vector<FieldRow<S>>& rows,
                                           const nlohmann::json& j, std::int64_t S::*base,
                                           const std::string& what) {
  S unmarked;
  unmarked.*base = kUnmarkedPositionBase;
  S r = fields_from_json(rows, j, std::move(unmarked), what);
  const std::int64_t shift = rebase_positions(r.*base, field_what(what, kPositionBaseKey));
  return {std::move(r), shift};
}

// The theory's key number q (1..length) of the query at token `position` (none: the last
// token, q = length); std::invalid_argument naming `flag` for a position past the last token.
inline std::int64_t query_key(const std::optional<std::int64_t>& position, std::int64_t length,
                              const std::string& flag) {
  if (!position) return length;
  if (*position < 0 || *position >= length)
    throw std::invalid_argument(flag + " must be a position in 0.." + std::to_string(length - 1) +
                                " (positions count from 0; omit it for the last token), got " +
                                std::to_string(*position));
  return *position + 1;
}

}  // namespace posbias
