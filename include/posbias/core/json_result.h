// A command's result JSON when no --json FILE is given. A script or a pipe reads it from stdout
// as it always has; a person at a terminal would get a screenful of numbers (birth: 20-30 KB),
// so there the command prints a short summary and how to get the JSON instead.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace posbias {

// True when stdout is a terminal.
bool stdout_is_terminal();

// "the result JSON (23 KB) is not printed on a terminal: --json FILE writes it, --json - prints
// it here"
std::string json_hint(std::size_t bytes);

// `json` to `path` (write_output: a file, or `-` for stdout), or, when `path` is empty, to
// stdout, except on a terminal (`terminal`), where `summary()` (lines ending in \n) and
// json_hint go to stdout instead. Otherwise, when stderr is a terminal (and the JSON did not just
// go to it), the summary goes to stderr, followed by "wrote PATH" for a file.
void write_json_result(const std::string& path, std::string_view json,
                       const std::function<std::string()>& summary,
                       bool terminal = stdout_is_terminal());

}  // namespace posbias
