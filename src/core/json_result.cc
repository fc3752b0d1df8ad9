#include "posbias/core/json_result.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "posbias/core/atomic_file.h"

namespace posbias {

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

std::string json_hint(std::size_t bytes) {
  const std::string size = bytes < 1024
                               ? fmt::format("{} bytes", bytes)
                               : fmt::format("{:.0f} KB", static_cast<double>(bytes) / 1024);
  return "the result JSON (" + size +
         ") is not printed on a terminal: --json FILE writes it, --json - prints it here";
}

void write_json_result(const std::string& path, std::string_view json,
                       const std::function<std::string()>& summary, bool terminal) {
  if (path.empty() && terminal) return write_output("", summary() + json_hint(json.size()) + "\n");
  write_output(path, json);
  // The JSON into a file or a pipe while a person watches stderr: the summary there, so the run
  // does not end in silence (not when the JSON itself just went to that terminal).
  if (::isatty(STDERR_FILENO) != 1 || (path == "-" && terminal)) return;
  std::string text = summary();
  if (!path.empty() && path != "-") text += "wrote " + path + "\n";
  std::fputs(text.c_str(), stderr);
}

}  // namespace posbias
