// Reading untrusted input with a limit: a whole file, refused before allocation when it is not
// a regular file or is larger than the caller's limit, and a line at a time, refused once a
// line passes its limit (a file without newlines, or /dev/zero, never grows a line past it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>

namespace posbias {

// Throws std::runtime_error naming the path: not a regular file, cannot stat, "'p' is N bytes,
// over the <limit_name> limit" (e.g. "1 GiB CSV"), cannot open or read.
std::string read_bounded_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                              const std::string& limit_name);

// Reads the next line of `in` without its '\n' into `line`; false at the end of the input.
// Throws std::runtime_error "<where> line <line_number> is longer than <limit>" as soon as the
// line passes max_bytes, having read no more than that.
bool read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes,
                       const std::string& where, std::int64_t line_number);

}  // namespace posbias
