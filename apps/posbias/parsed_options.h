// Options whose values stay text until the action runs, then are parsed (core/parse.h) straight
// into the options struct's own fields. Two things follow:
// - a bad value gets the one-line error with exit 2 (CLI11 never sees a type);
// - --help shows the default the field already holds (XOptions{}), so no default is written
//   twice: an option the user did not give keeps it.
// Ranges: give lo/hi only where the library does not check the value itself.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/core/parse.h"
#include "posbias/core/query_position.h"
#include "posbias/runfiles/checkpoint_selection.h"

namespace posbias::cli {

class ParsedOptions {
 public:
  static constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::int64_t* target,
                   const std::string& help, std::int64_t lo = kMin, std::int64_t hi = kMax) {
    return add_parsed(cmd, flags, help, std::to_string(*target), "INT",
                      [target, lo, hi](const std::string& text, const std::string& name) {
                        *target = parse_integer_in(text, name, lo, hi);
                      });
  }
  CLI::Option* add(CLI::App* cmd, const std::string& flags, int* target, const std::string& help,
                   std::int64_t lo = std::numeric_limits<int>::min(),
                   std::int64_t hi = std::numeric_limits<int>::max()) {
    return add_parsed(cmd, flags, help, std::to_string(*target), "INT",
                      [target, lo, hi](const std::string& text, const std::string& name) {
                        *target = static_cast<int>(parse_integer_in(text, name, lo, hi));
                      });
  }
  // A seed: an integer >= 0.
  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::uint64_t* target,
                   const std::string& help) {
    return add_parsed(
        cmd, flags, help, std::to_string(*target), "INT",
        [target](const std::string& text, const std::string&) { *target = parse_seed(text); });
  }
  // A finite number (nan and inf refused).
  CLI::Option* add(CLI::App* cmd, const std::string& flags, double* target,
                   const std::string& help) {
    return add_parsed(cmd, flags, help, fmt::format("{}", *target), "NUMBER",
                      [target](const std::string& text, const std::string& name) {
                        *target = parse_number(text, name);
                      });
  }
  // A finite number that stays unset (none) until given.
  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::optional<double>* target,
                   const std::string& help) {
    return add_parsed(cmd, flags, help, *target ? fmt::format("{}", **target) : "none", "NUMBER",
                      [target](const std::string& text, const std::string& name) {
                        *target = parse_number(text, name);
                      });
  }
  // A token position (0-based, position_base.h), or "last" (unset) for the last token.
  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::optional<std::int64_t>* target,
                   const std::string& help) {
    return add_parsed(cmd, flags, help, query_position_text(*target), query_position_type(),
                      [target](const std::string& text, const std::string& name) {
                        *target = parse_query_position(text, name);
                      });
  }
  // A comma list of integers.
  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::vector<std::int64_t>* target,
                   const std::string& help, std::int64_t lo = kMin, std::int64_t hi = kMax) {
    return add_parsed(cmd, flags, help, join_integers(*target), "LIST",
                      [target, lo, hi](const std::string& text, const std::string& name) {
                        *target = parse_integer_list(text, name, lo, hi);
                      });
  }
  CLI::Option* add(CLI::App* cmd, const std::string& flags, std::vector<int>* target,
                   const std::string& help, int lo = std::numeric_limits<int>::min(),
                   int hi = std::numeric_limits<int>::max()) {
    return add_parsed(cmd, flags, help, join_integers(*target), "LIST",
                      [target, lo, hi](const std::string& text, const std::string& name) {
                        *target = parse_int_list(text, name, lo, hi);
                      });
  }

  // Which checkpoints of a run: all, last or a comma list of steps.
  CLI::Option* add(CLI::App* cmd, const std::string& flags, CheckpointSelection* target,
                   const std::string& help) {
    return add_parsed(cmd, flags, help, to_string(*target), checkpoint_selection_type(),
                      [target](const std::string& text, const std::string&) {
                        *target = parse_checkpoint_selection(text);
                      });
  }

  // `--checkpoint FILE`, which eval and discrepancy took before they chose checkpoints by step:
  // refused in one line naming --checkpoints (exit 2), with the step of a step_N file. Hidden.
  void add_retired_checkpoint_option(CLI::App* cmd) {
    add_parsed(cmd, "--checkpoint", "", "", "FILE",
               [](const std::string& file, const std::string&) {
                 const std::size_t at = file.rfind("step_");
                 std::string step = at == std::string::npos ? "" : file.substr(at + 5);
                 step = step.substr(0, step.find_first_not_of("0123456789"));
                 step.erase(0, std::min(step.find_first_not_of('0'), step.size() - 1));
                 throw std::invalid_argument(
                     "--checkpoint FILE is gone: choose checkpoints by step with --checkpoints " +
                     checkpoint_selection_type() + " (" +
                     (step.empty() ? std::string("e.g. --checkpoints 500")
                                   : "for that file --checkpoints " + step) +
                     ")");
               })
        ->group("");
  }

  // A named choice (an enum): parser maps the text to a value (std::invalid_argument for an
  // unknown name), namer maps the default back to text for --help.
  template <class T, class Parser, class Namer>
  CLI::Option* add_choice(CLI::App* cmd, const std::string& flags, T* target,
                          const std::string& help, Parser parser, Namer namer) {
    return add_parsed(
        cmd, flags, help, std::string(namer(*target)), "NAME",
        [target, parser](const std::string& text, const std::string&) { *target = parser(text); });
  }

  // A flag (no value): `given` runs when the user gave it. Bound to a bool, so that a value
  // glued to it that is not one (--quiet=maybe) is refused as CLI11 refuses a bad value.
  CLI::Option* add_flag(CLI::App* cmd, const std::string& flags, const std::string& help,
                        std::function<void()> given) {
    auto entry = std::make_unique<Entry>();
    entry->parse = [given = std::move(given)](const std::string&, const std::string&) { given(); };
    entry->option = cmd->add_flag(flags, entry->flag, help);
    entries_.push_back(std::move(entry));
    return entries_.back()->option;
  }

  // Several values (a repeatable option, or a positional when `flags` has no dash): `given` gets
  // them when the user gave any; `type` is what --help shows for each.
  CLI::Option* add_list(CLI::App* cmd, const std::string& flags, const std::string& help,
                        const std::string& type,
                        std::function<void(const std::vector<std::string>&)> given) {
    auto entry = std::make_unique<Entry>();
    entry->option = cmd->add_option(flags, entry->values, help)->type_name(type);
    entry->parse = [e = entry.get(), given = std::move(given)](
                       const std::string&, const std::string&) { given(e->values); };
    entries_.push_back(std::move(entry));
    return entries_.back()->option;
  }

  // Several values each converted by CLI11 as a T, as a typed list option does: a value that is
  // not one stops the parse with CLI11's own message ("Could not convert: --depths = 1,x"), and
  // --help shows `shown` as CLI11 shows a typed list's default. `given` gets them when the user
  // gave any; `type` is what --help shows for each.
  template <class T>
  CLI::Option* add_typed_list(CLI::App* cmd, const std::string& flags, const std::string& help,
                              const std::string& type, std::vector<T> shown,
                              std::function<void(const std::vector<T>&)> given) {
    auto values = std::make_shared<std::vector<T>>(std::move(shown));
    auto entry = std::make_unique<Entry>();
    entry->option = cmd->add_option(flags, *values, help)->capture_default_str()->type_name(type);
    entry->parse = [values, given = std::move(given)](const std::string&, const std::string&) {
      given(*values);
    };
    entries_.push_back(std::move(entry));
    return entries_.back()->option;
  }

  // Any other value: `parser` sets the target from the option's text (and its name, for the
  // error); `type` is what --help shows (LIST, SLOPES, ...).
  CLI::Option* add_parsed(CLI::App* cmd, const std::string& flags, const std::string& help,
                          const std::string& default_text, const std::string& type,
                          std::function<void(const std::string&, const std::string&)> parser) {
    auto entry = std::make_unique<Entry>();
    entry->name = flags.substr(flags.rfind(',') == std::string::npos ? 0 : flags.rfind(',') + 1);
    entry->parse = std::move(parser);
    entry->option =
        cmd->add_option(flags, entry->text, help)->default_str(default_text)->type_name(type);
    entries_.push_back(std::move(entry));
    return entries_.back()->option;
  }

  // Parses every option the user gave into its field; throws std::invalid_argument (exit 2).
  void parse() const {
    for (const auto& e : entries_) {
      if (e->option->count() > 0) e->parse(e->text, e->name);
    }
  }

 private:
  struct Entry {
    std::string text, name;
    std::vector<std::string> values;  // add_list's
    bool flag = false;                // add_flag's (its value is not read: given() is)
    CLI::Option* option = nullptr;
    std::function<void(const std::string&, const std::string&)> parse;
  };

  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace posbias::cli
