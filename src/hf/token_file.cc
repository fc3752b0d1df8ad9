#include "posbias/hf/token_file.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "posbias/core/bounded_read.h"

namespace posbias {

std::vector<std::vector<std::int64_t>> read_token_file(const std::string& path,
                                                       std::int64_t vocab) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read token file '" + path + "'");
  return parse_token_lines(in, path, vocab);
}

std::vector<std::vector<std::int64_t>> parse_token_lines(std::istream& in, const std::string& path,
                                                         std::int64_t vocab) {
  std::vector<std::vector<std::int64_t>> out;
  std::string line;
  std::size_t line_no = 0;
  // A line holds at most kMaxTokenFileLength ids of up to 20 digits and a separator each.
  const std::size_t max_line = static_cast<std::size_t>(kMaxTokenFileLength) * 22;
  while (read_bounded_line(in, line, max_line, path, static_cast<std::int64_t>(line_no) + 1)) {
    ++line_no;
    for (char& ch : line) ch = ch == ',' ? ' ' : ch;
    std::istringstream ls(line);
    std::vector<std::int64_t> ids;
    std::string word;
    while (ls >> word) {
      std::size_t used = 0;
      long long v = -1;
      try {
        v = std::stoll(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || v < 0 || v >= vocab) {
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": '" + word.substr(0, 20) +
                                 "' is not a token id in 0.." + std::to_string(vocab - 1));
      }
      ids.push_back(v);
      if (ids.size() > static_cast<std::size_t>(kMaxTokenFileLength))
        throw std::runtime_error(path + ": sequence too long");
    }
    if (!ids.empty()) out.push_back(std::move(ids));
    if (out.size() > kMaxTokenFileRows)
      throw std::runtime_error(path + ": too many sequences (max " +
                               std::to_string(kMaxTokenFileRows) + ")");
  }
  if (out.empty()) throw std::runtime_error("token file '" + path + "' has no sequences");
  return out;
}

}  // namespace posbias
