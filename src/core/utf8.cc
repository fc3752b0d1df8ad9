#include "posbias/core/utf8.h"

#include <stdexcept>
#include <string>

namespace posbias {

std::size_t utf8_sequence_length(unsigned char lead) {
  return lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 1;
}

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(lead);
    if (n == 1 || i + n > text.size()) return i;  // a continuation, 0xC0/0xC1, 0xF5.., cut short
    const auto second = static_cast<unsigned char>(text[i + 1]);
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const unsigned char low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
    if (second < low || second > high) return i;
    for (std::size_t k = 2; k < n; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if (c < 0x80 || c > 0xBF) return i;
    }
    i += n;
  }
  return std::nullopt;
}

void require_utf8(std::string_view text) {
  if (const auto bad = invalid_utf8_at(text))
    throw std::invalid_argument("byte " + std::to_string(*bad + 1) + " is not valid UTF-8");
}

}  // namespace posbias
