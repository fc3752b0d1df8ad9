// Atomic file output: write a temporary file beside the target, fsync it, rename it over
// the target, fsync the directory. A reader sees the old file or the new one, never half.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace posbias {

// Throws std::runtime_error naming the path on any failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// A command's result: written atomically to `path`, or to stdout when `path` is empty.
void write_output(const std::string& path, std::string_view content);

// Creates a directory (and parents); throws std::runtime_error if it cannot.
void ensure_directory(const std::filesystem::path& dir);

}  // namespace posbias
