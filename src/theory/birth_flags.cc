#include "posbias/theory/birth_flags.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/shell_quote.h"
#include "posbias/theory/birth_spec.h"

namespace posbias {
namespace {

// A field's JSON value as its flag's text: a name as a shell word, a number as its shortest
// text that reads back the same (2, not 2.0).
std::string flag_text(const FieldRow<BirthSpec>& row, const nlohmann::json& value) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    const bool plain = !text.empty() && text.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_.") == std::string::npos;
    return plain ? text : shell_quote(text);
  }
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  if (value.is_number()) return value.dump();
  throw std::invalid_argument("birth flags: option '" + row.name + "' has no flag for " +
                              value.dump());
}

}  // namespace

std::string birth_flags(const BirthSpec& spec, const BirthSpec& from) {
  std::string out;
  for (const FieldRow<BirthSpec>& row : birth_spec_fields()) {
    const nlohmann::json value = row.write(spec);
    if (value == row.write(from)) continue;
    out += (out.empty() ? "" : " ") + row.flag + " " + flag_text(row, value);
  }
  return out;
}

std::string birth_flags(const BirthSpec& spec) { return birth_flags(spec, BirthSpec{}); }

}  // namespace posbias
