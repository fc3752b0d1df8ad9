// Token-id files, the input a user gives to measure a checkpoint on real text (`birth`,
// `heads`): one sequence per line, ids separated by spaces or commas. Untrusted: every id is
// checked against the vocabulary and the sizes are capped.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace posbias {

constexpr std::int64_t kMaxTokenFileLength = 65536;  // ids per sequence
constexpr std::size_t kMaxTokenFileRows = 100000;    // sequences per file

// Throws std::runtime_error naming the file, the line and the bad word.
std::vector<std::vector<std::int64_t>> read_token_file(const std::string& path, std::int64_t vocab);
// The same from a stream; `name` is used in the errors.
std::vector<std::vector<std::int64_t>> parse_token_lines(std::istream& in, const std::string& name,
                                                         std::int64_t vocab);

}  // namespace posbias
