// A tokenizer's kind (tokenizer.h) as a value of a field table (core/field_table.h), written and
// read by its name from its one name table; an unknown name is refused listing the names:
//   "unknown tokenizer 'byte' (use spm or bytes); did you mean 'bytes'?"
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

struct TokenizerNames {
  static std::string name(TokenizerKind k) { return to_string(k); }
  static TokenizerKind parse(const std::string& s) { return parse_tokenizer_kind(s); }
};
template <>
struct FieldCodec<TokenizerKind> : EnumCodec<TokenizerKind, TokenizerNames> {};

}  // namespace posbias
