// A command line through one command's own flags, as the command parses it: the flags a
// command's flag-adding function registers on a CLI11 app (its field table's rows), parsed by
// CLI11 and then by each row's parser (cli::ParsedOptions). The flags tests round-trip the
// command lines the library writes through it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "apps/posbias/parsed_options.h"

namespace posbias_test {

// The options `flags` gives, from Options{}; add_flags(app, parsed, options) registers the flags.
// A flag the command refuses throws as the command's own parse does.
template <class Options, class AddFlags>
Options parse_flags(const std::string& flags, AddFlags&& add_flags) {
  CLI::App app;
  posbias::cli::ParsedOptions parsed;
  Options options;
  add_flags(&app, &parsed, &options);
  app.parse(flags, false);
  parsed.parse();
  return options;
}

}  // namespace posbias_test
