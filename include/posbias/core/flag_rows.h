// Rows of a field table (core/field_table.h) whose flag's text is parsed as the command line has
// always parsed it, so that flags registered from a table keep their one-line messages ("--jobs
// must be in -2147483648..2147483647, got 1e10", "--seed must be >= 0", "unknown --api 'chats'
// (use chat or completions)"): each row's from_flag refuses what the field would not read.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "posbias/core/field_table.h"
#include "posbias/core/parse.h"

namespace posbias {

// The row, its flag's text read by `parse(text, flag)`: what that returns, as JSON, is the
// field's value.
template <class S, class Parse>
FieldRow<S> parsed_flag(FieldRow<S> row, Parse parse) {
  row.from_flag = [flag = row.flag, parse](const std::string& text) {
    return nlohmann::json(parse(text, flag));
  };
  return row;
}

// An integer field whose flag takes lo..hi (the member type's range unless given).
template <class S, class T>
FieldRow<S> integer_field(std::string name, T S::*member, std::string help,
                          std::int64_t lo = std::numeric_limits<T>::min(),
                          std::int64_t hi = std::numeric_limits<T>::max()) {
  return parsed_flag(field(std::move(name), member, std::move(help)),
                     [lo, hi](const std::string& text, const std::string& flag) {
                       return parse_integer_in(text, flag, lo, hi);
                     });
}

// A seed field: an integer >= 0.
template <class S>
FieldRow<S> seed_field(std::string name, std::uint64_t S::*member, std::string help) {
  return parsed_flag(field(std::move(name), member, std::move(help)),
                     [](const std::string& text, const std::string&) { return parse_seed(text); });
}

// An enum field (or one of a value written by its name) written, read and given on the command
// line by Names' names (Names::name, Names::parse, as EnumCodec); an unknown name is refused with
// Names::parse's own message. `type` as in field().
template <class Names, class S, class T>
FieldRow<S> named_field(std::string name, T S::*member, std::string help, std::string type = "") {
  return parsed_flag(
      field<S, T, EnumCodec<T, Names>>(std::move(name), member, std::move(help), std::move(type)),
      [](const std::string& text, const std::string&) {
        return std::string(Names::name(Names::parse(text)));
      });
}

// The row with another flag than its name gives ("--suite" for the field "suites").
template <class S>
FieldRow<S> flagged(FieldRow<S> row, std::string flag) {
  row.flag = std::move(flag);
  return row;
}

}  // namespace posbias
