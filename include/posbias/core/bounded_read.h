// Reading a whole untrusted file into memory, refused before allocation when it is not a
// regular file or is larger than the caller's limit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace posbias {

// Throws std::runtime_error naming the path: not a regular file, cannot stat, "'p' is N bytes,
// over the <limit_name> limit" (e.g. "1 GiB CSV"), cannot open or read.
std::string read_bounded_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                              const std::string& limit_name);

}  // namespace posbias
