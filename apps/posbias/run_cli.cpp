// The one error contract of every posbias command, in `posbias` and in the torch plugin alike.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "commands.h"
#include "posbias/core/printable.h"

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

namespace {

// An error message as one printable line: a libtorch backtrace ("\nException raised from",
// "\nframe #0") is cut off, and control bytes become \xNN.
std::string one_line(std::string_view message) {
  for (const std::string_view trace : {"\nException raised from", "\nframe #"}) {
    message = message.substr(0, message.find(trace));
  }
  return printable(message);
}

void print_error(std::string_view message, std::string_view suffix = "") {
  std::fprintf(stderr, "posbias: error: %s%.*s\n", one_line(message).c_str(),
               static_cast<int>(suffix.size()), suffix.data());
}

// Results written to stdout reach it: stdio's buffer is flushed and no write failed (a full
// disk, /dev/full). Without this check `posbias theory > /dev/full` would exit 0.
bool stdout_written() {
  errno = 0;
  std::cout.flush();
  return std::fflush(stdout) == 0 && !std::ferror(stdout) && !std::cout.fail();
}

int stdout_failed() {
  print_error(std::string("cannot write the result to stdout: ") +
              (errno != 0 ? std::strerror(errno) : "a write failed"));
  return 1;
}

}  // namespace

int run_cli(CLI::App& app, const Action& action, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      const int code = app.exit(e);
      return stdout_written() ? code : stdout_failed();
    }
    print_error(e.what(), " (see --help)");
    return 2;
  } catch (const std::invalid_argument& e) {  // an option's own check (add_output_option)
    print_error(e.what());
    return 2;
  }
  try {
    if (action) action();
  } catch (const ExitQuietly& e) {
    return e.code;
  } catch (const std::invalid_argument& e) {
    print_error(e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    print_error("out of memory; use a smaller --length or --layers");
    return 1;
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
  return stdout_written() ? 0 : stdout_failed();
}

}  // namespace posbias::cli
