// An endpoint's API (openai.h) as a value of a field table (core/field_table.h), written and read
// by its name from its one name table; an unknown name is refused listing the names:
//   "unknown --api 'chats' (use chat or completions); did you mean 'chat'?"
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/llm/openai.h"

namespace posbias {

struct ApiNames {
  static std::string name(Api api) { return to_string(api); }
  static Api parse(const std::string& name) { return parse_api(name); }
};
template <>
struct FieldCodec<Api> : EnumCodec<Api, ApiNames> {};

}  // namespace posbias
