#include "posbias/core/flag_text.h"

#include <fmt/format.h>

#include <stdexcept>

#include "posbias/core/shell_quote.h"

namespace posbias {

std::string flag_text(const nlohmann::json& value) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    const bool plain = !text.empty() && text.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_.,:") == std::string::npos;
    return plain ? text : shell_quote(text);
  }
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  if (value.is_number()) return value.dump();
  if (value.is_array()) {
    std::string out;
    for (const nlohmann::json& v : value) out += (out.empty() ? "" : ",") + flag_text(v);
    return out;
  }
  throw std::invalid_argument("no flag's text gives the value " + value.dump());
}

}  // namespace posbias
