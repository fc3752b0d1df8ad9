// The one error contract of every posbias command, in `posbias` and in the torch plugin alike.
#include <cstdio>
#include <new>
#include <stdexcept>

#include "commands.h"

namespace posbias::cli {

namespace {

const CommandInfo* find_torch_command(std::string_view name) {
  for (const CommandInfo& command : kTorchCommands) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

}  // namespace

bool is_torch_command(std::string_view name) { return find_torch_command(name) != nullptr; }

const char* torch_command_description(std::string_view name) {
  if (const CommandInfo* command = find_torch_command(name)) return command->description;
  throw std::logic_error("not a torch command: " + std::string(name));
}

int run_cli(CLI::App& app, const Action& action, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "posbias: error: %s (see --help)\n", e.what());
    return 2;
  }
  try {
    if (action) action();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "posbias: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "posbias: error: out of memory; use a smaller --length or --layers\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posbias: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace posbias::cli
