// The `posbias theory` commands' flags of their options' field tables
// (experiments/theory/theory_option_fields.h), registered as ParsedOptions: each flag's text is
// parsed by its row when the action runs, so a bad value gets its one-line message (exit 2), and
// --help shows the default the options hold.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/theory/theory_option_fields.h"
#include "parsed_options.h"
#include "posbias/core/flag_text.h"
#include "posbias/core/query_position.h"

namespace posbias::cli {

// A row's flags as `theory` spells them: -L, -H, -a and -q beside --length, --layers, --alpha and
// --query.
inline std::string theory_flag_names(const std::string& name, const std::string& flag) {
  for (const auto& [field, letter] : {std::pair{"length", "-L"}, std::pair{"layers", "-H"},
                                      std::pair{"alpha", "-a"}, std::pair{"query", "-q"}})
    if (name == field) return std::string(letter) + "," + flag;
  return flag;
}

// A field's value as --help shows its default: an unset query "last", another unset value
// "none", anything else as its flag spells it.
template <class S>
std::string shown_theory_default(const FieldRow<S>& row, const S& options) {
  const nlohmann::json value = row.write(options);
  if (!value.is_null()) return flag_text(value);
  return row.type == query_position_type() ? query_position_text(std::nullopt) : "none";
}

// Registers the rows' flags on `cmd`, parsed into `options` by parsed->parse(); `what` names the
// options in a refusal the reader makes ("theory option 'grid' ..."). A BOOL row is a flag that
// turns its default over, set as the command line is parsed, before any value is read (--exact
// decides how α and the sink share are read). A required row's flag is required. After each row,
// `after(row's name)` registers the options outside the table that --help lists there.
template <class S>
void add_theory_option_flags(CLI::App* cmd, ParsedOptions* parsed, S* options,
                             const std::vector<FieldRow<S>>& rows, const std::string& what,
                             const std::function<void(const std::string&)>& after = {}) {
  for (const FieldRow<S>& row : rows) {
    CLI::Option* option = nullptr;
    if (row.type == "BOOL") {
      const bool turned = !row.write(*options).template get<bool>();
      option = cmd->add_flag_callback(
          row.flag, [&row, options, turned, what] { row.read(turned, *options, what); }, row.help);
    } else {
      option = parsed->add_parsed(
          cmd, theory_flag_names(row.name, row.flag), row.help, shown_theory_default(row, *options),
          row.type, [&row, options, what](const std::string& text, const std::string&) {
            row.read(row.from_flag(text), *options, what);
          });
    }
    if (row.required) option->required();
    if (after) after(row.name);
  }
}

}  // namespace posbias::cli
