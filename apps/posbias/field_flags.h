// A command's flags from its options' field table (core/field_table.h), registered as
// ParsedOptions: each flag's text is parsed by its row when the action runs, so a bad value gets
// its one-line message (exit 2), and --help shows the default the table's values hold.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "parsed_options.h"
#include "posbias/core/field_table.h"
#include "posbias/core/flag_text.h"

namespace posbias::cli {

// How a command spells some rows' flags, by the row's name: a short flag beside the long one
// ("length" → "-L"), and the word --help shows for an unset value (null, an empty name or list:
// "theta" → "auto"; otherwise null shows "none" and an empty name or list nothing). A BOOL row
// in `set_while_parsing` sets its field as the command line is parsed, before any value is read
// (theory's --exact decides how α and the sink share are read). With `required_flags`, a
// required row's flag is required. A row in `lists` (a list of strings) is a list flag: it takes
// several values, the flag repeated or its values space-separated, and split at the row's
// delimiter when it has one ('\0': none); its row reads them as a JSON list. A list row of type
// INT (a list of int) is converted by CLI11 as the command line is parsed, as a typed list is: a
// value that is not an int is refused then with CLI11's message, and --help shows its default.
struct FieldFlagWords {
  std::map<std::string, std::string> short_flags, unset;
  std::set<std::string> set_while_parsing = {};
  bool required_flags = false;
  std::map<std::string, char> lists = {};
};

// A field's value as --help shows its default.
inline std::string shown_field_default(const nlohmann::json& value, const std::string& row,
                                       const FieldFlagWords& words) {
  const bool empty = value.is_null() || (value.is_string() && value.get<std::string>().empty()) ||
                     (value.is_array() && value.empty());
  if (empty && words.unset.count(row)) return words.unset.at(row);
  if (value.is_null()) return "none";
  return empty ? "" : flag_text(value);
}

// A list row's flag (FieldFlagWords::lists), split at `delimiter` unless it is '\0': its values
// read by the row as a JSON list when parsed->parse() runs; `shown`, the row's value --help shows.
template <class S>
CLI::Option* add_list_flag(CLI::App* cmd, ParsedOptions* parsed, const FieldRow<S>& row,
                           const std::string& flags, const nlohmann::json& shown, S* options,
                           const std::string& what, char delimiter) {
  const auto read = [&row, options, what](const auto& values) {
    row.read(nlohmann::json(values), *options, what);
  };
  CLI::Option* option = row.type == "INT"
                            ? parsed->add_typed_list<int>(cmd, flags, row.help, row.type,
                                                          shown.get<std::vector<int>>(), read)
                            : parsed->add_list(cmd, flags, row.help, row.type, read);
  if (delimiter != '\0') option->delimiter(delimiter);
  return option;
}

// Registers the flags of `rows` on `cmd`, parsed into `options` by parsed->parse() (`what`
// names a field whose value its row refuses: "eval option"); --help shows the values of `shown`,
// and a flag of a BOOL field turns its default over. After each row, `after(row's name, its
// option)`, when given, registers the options outside the table that --help lists there.
template <class S>
void add_field_flags(CLI::App* cmd, ParsedOptions* parsed, const std::vector<FieldRow<S>>& rows,
                     const S& shown, S* options, const std::string& what,
                     const FieldFlagWords& words,
                     const std::function<void(const std::string&, CLI::Option*)>& after = {}) {
  for (const FieldRow<S>& row : rows) {
    const nlohmann::json value = row.write(shown);
    const auto short_flag = words.short_flags.find(row.name);
    const std::string flags =
        (short_flag == words.short_flags.end() ? "" : short_flag->second + ",") + row.flag;
    CLI::Option* option = nullptr;
    const auto list = words.lists.find(row.name);
    if (list != words.lists.end()) {
      option = add_list_flag(cmd, parsed, row, flags, value, options, what, list->second);
    } else if (row.type == "BOOL") {
      const bool turned = !value.get<bool>();  // --no-NAME: CLI11's negated flag shows {false}
      const std::function<void()> set = [&row, options, turned, what] {
        row.read(turned, *options, what);
      };
      // Set while parsing: CLI11's flag callback, which refuses a value that is not a bool
      // (--exact=maybe) and runs only when the flag turns on, so only for a field false by
      // default.
      if (words.set_while_parsing.count(row.name) && !turned)
        throw std::logic_error("set_while_parsing needs a BOOL row false by default: " + row.name);
      option = words.set_while_parsing.count(row.name)
                   ? cmd->add_flag_callback(flags, set, row.help)
                   : parsed->add_flag(cmd, (turned ? "" : "!") + flags, row.help, set);
    } else {
      option = parsed->add_parsed(
          cmd, flags, row.help, shown_field_default(value, row.name, words), row.type,
          [&row, options, what](const std::string& text, const std::string&) {
            row.read(row.from_flag(text), *options, what);
          });
    }
    if (words.required_flags && row.required) option->required();
    if (after) after(row.name, option);
  }
}

// --help's option lines as CLI11 writes them, but with the names after "Needs:" and "Excludes:"
// in the order `cmd` registered them: CLI11 orders them by address, which the allocations of the
// table's flags leave to chance.
class RegisteredOrderFormatter : public CLI::Formatter {
 public:
  explicit RegisteredOrderFormatter(const CLI::App* cmd) : cmd_(cmd) {}

  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string text = CLI::Formatter::make_option_opts(opt);
    if (!opt->get_option_text().empty()) return text;
    const std::string needs = " " + get_label("Needs") + ":";
    const std::string excludes = " " + get_label("Excludes") + ":";
    text = text.substr(0, std::min(text.find(needs), text.find(excludes)));
    const auto listed = [this](const std::set<CLI::Option*>& set, const std::string& label) {
      std::string out = set.empty() ? "" : label;
      for (const CLI::Option* o : cmd_->get_options())
        if (set.count(const_cast<CLI::Option*>(o))) out += " " + o->get_name();
      return out;
    };
    return text + listed(opt->get_needs(), needs) + listed(opt->get_excludes(), excludes);
  }

 private:
  const CLI::App* cmd_;
};

}  // namespace posbias::cli
