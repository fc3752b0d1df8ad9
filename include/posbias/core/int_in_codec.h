// The codec of an integer field whose value must lie in Lo..Hi (core/field_table.h): the
// strict reader says which range a value misses ("field 'hops' is 0, out of range: it must
// be in 1..4"), a value past the 64-bit range included, and names a value that is not an
// integer ("field 'hops' must be an integer, got 1.5").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace posbias {

template <std::int64_t Lo, std::int64_t Hi>
struct IntIn {
  static_assert(0 <= Hi && Lo <= Hi && Hi <= INT32_MAX && Lo >= INT32_MIN);
  static constexpr const char* type = "INT";
  static nlohmann::json write(int v) { return v; }
  static int read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_number_integer())
      throw std::invalid_argument(what + " must be an integer, got " + j.dump().substr(0, 20));
    // Non-negative integers are unsigned in nlohmann; past INT64_MAX they would wrap.
    const bool in_range = j.is_number_unsigned()
                              ? j.get<std::uint64_t>() <= static_cast<std::uint64_t>(Hi) &&
                                    static_cast<std::int64_t>(j.get<std::uint64_t>()) >= Lo
                              : j.get<std::int64_t>() >= Lo && j.get<std::int64_t>() <= Hi;
    if (!in_range) {
      throw std::invalid_argument(what + " is " + j.dump() + ", out of range: it must be in " +
                                  std::to_string(Lo) + ".." + std::to_string(Hi));
    }
    return static_cast<int>(j.get<std::int64_t>());
  }
};

}  // namespace posbias
