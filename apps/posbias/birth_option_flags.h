// `posbias birth`'s flags of BirthSpec's field table (theory/birth_spec.h), registered as
// ParsedOptions: each flag's text is parsed by its row when the action runs, so a bad value gets
// its one-line message (exit 2), and --help shows the default the options hold.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/birth/birth.h"
#include "parsed_options.h"
#include "posbias/theory/birth_spec.h"

namespace posbias::cli {

// A field's value as --help shows its default: a number as ParsedOptions shows it (1, not 1.0),
// an unset query "last", an unset number "none", an unset name nothing (the help says whose).
inline std::string shown_birth_default(const FieldRow<BirthSpec>& row, const BirthOptions& o) {
  const nlohmann::json value = row.write(o);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  if (!value.is_null()) return value.dump();
  if (row.type == query_position_type()) return query_position_text(std::nullopt);
  return row.type == "NUMBER" ? "none" : "";
}

// Registers the table's flags on `cmd` (-L for --length and -q for --query, as `theory` spells
// them), parsed into `options` by parsed->parse().
inline void add_birth_option_flags(CLI::App* cmd, ParsedOptions* parsed, BirthOptions* options) {
  for (const FieldRow<BirthSpec>& row : birth_spec_fields()) {
    const std::string flag = row.name == "length"  ? "-L," + row.flag
                             : row.name == "query" ? "-q," + row.flag
                                                   : row.flag;
    parsed->add_parsed(cmd, flag, row.help, shown_birth_default(row, *options), row.type,
                       [&row, options](const std::string& text, const std::string&) {
                         row.read(row.from_flag(text), *options, "birth option");
                       });
  }
}

}  // namespace posbias::cli
