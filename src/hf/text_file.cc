#include "posbias/hf/text_file.h"

#include <fstream>
#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/hf/token_file.h"

namespace posbias {

std::vector<std::vector<std::int64_t>> read_text_file(const std::string& path,
                                                      const CheckpointTokenizer& tokenizer,
                                                      std::int64_t vocab, std::int64_t positions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read text file '" + path + "'");
  return parse_text_lines(in, path, tokenizer, vocab, positions);
}

std::vector<std::vector<std::int64_t>> parse_text_lines(std::istream& in, const std::string& path,
                                                        const CheckpointTokenizer& tokenizer,
                                                        std::int64_t vocab,
                                                        std::int64_t positions) {
  std::vector<std::vector<std::int64_t>> out;
  std::string line;
  std::int64_t line_no = 0;
  while (read_bounded_line(in, line, kMaxTextLineBytes, path, line_no + 1)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    std::vector<std::int64_t> ids;
    try {
      ids = tokenizer.encode(line);
    } catch (const std::exception& e) {
      throw std::runtime_error(where + e.what());
    }
    for (const std::int64_t id : ids) {
      if (id >= vocab)
        throw std::runtime_error(where + "token id " + std::to_string(id) + " of " +
                                 tokenizer.source() + " is outside the model's vocabulary of " +
                                 std::to_string(vocab) + " (is it this checkpoint's tokenizer?)");
    }
    if (static_cast<std::int64_t>(ids.size()) > positions)
      throw std::runtime_error(where + "the line is " + std::to_string(ids.size()) +
                               " tokens, more than the model's " + std::to_string(positions) +
                               " positions; split it into shorter lines");
    out.push_back(std::move(ids));
    if (out.size() > kMaxTokenFileRows)
      throw std::runtime_error(path + ": too many lines (max " + std::to_string(kMaxTokenFileRows) +
                               ")");
  }
  if (out.empty()) throw std::runtime_error("text file '" + path + "' has no lines");
  return out;
}

void CheckpointInputFiles::validate() const {
  if (!text.empty() && !tokens.empty())
    throw std::invalid_argument("--text and --tokens are two inputs: give one");
  if (!tokenizer.empty() && text.empty())
    throw std::invalid_argument("--tokenizer encodes --text: give --text FILE");
}

std::string CheckpointInputFiles::describe() const {
  return !text.empty() ? "text:" + text : !tokens.empty() ? "tokens:" + tokens : std::string();
}

std::vector<std::vector<std::int64_t>> CheckpointInputFiles::read(const std::string& config,
                                                                  std::int64_t vocab,
                                                                  std::int64_t positions) const {
  validate();
  if (text.empty()) return read_token_file(tokens, vocab);
  return read_text_file(text, CheckpointTokenizer::find(config, tokenizer), vocab, positions);
}

}  // namespace posbias
