// UTF-8 checked where untrusted text enters: a tokenizer reads characters, and a byte sequence
// that is not one (a stray continuation byte, an overlong form, a surrogate, a code point past
// U+10FFFF, a sequence cut short) must be refused by position rather than guessed at.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace posbias {

// The byte offset of the first invalid sequence; nullopt when `text` is valid UTF-8.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);
// std::invalid_argument "byte N is not valid UTF-8" (N from 1) unless `text` is valid UTF-8.
void require_utf8(std::string_view text);
// The length of the UTF-8 sequence whose lead byte is `lead` (1 for a byte that leads none).
std::size_t utf8_sequence_length(unsigned char lead);

}  // namespace posbias
