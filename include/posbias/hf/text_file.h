// Text files, the input a user gives to measure a checkpoint on text (`birth --text`, `heads
// --text`): one input per line, UTF-8, encoded by the checkpoint's own tokenizer
// (checkpoint_tokenizer.h). The newline ends the line and is not part of it (nor a '\r' before
// it); empty lines are skipped. Untrusted: lines and rows are capped, every id must be in the
// model's vocabulary, and a line longer than the model's positions is refused, not cut.
// CheckpointInputFiles is the pair of inputs `birth` and `heads` take with --config: --tokens
// or --text, read in one place.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "posbias/hf/checkpoint_tokenizer.h"

namespace posbias {

constexpr std::size_t kMaxTextLineBytes = std::size_t{1} << 20;

// One token row per non-empty line. Throws std::runtime_error "PATH:LINE: ..." for a line that
// is not UTF-8, gives an id outside 0..vocab-1 or more than `positions` tokens.
std::vector<std::vector<std::int64_t>> read_text_file(const std::string& path,
                                                      const CheckpointTokenizer& tokenizer,
                                                      std::int64_t vocab, std::int64_t positions);
// The same from a stream; `name` is used in the errors.
std::vector<std::vector<std::int64_t>> parse_text_lines(std::istream& in, const std::string& name,
                                                        const CheckpointTokenizer& tokenizer,
                                                        std::int64_t vocab, std::int64_t positions);

// The files a checkpoint (--config CONFIG) is measured on, as `birth` and `heads` take them:
// --tokens (token_file.h) or --text, encoded by the tokenizer beside CONFIG or --tokenizer.
struct CheckpointInputFiles {
  std::string tokens, text, tokenizer;
  bool empty() const { return tokens.empty() && text.empty(); }
  // Throws std::invalid_argument for --text with --tokens, or --tokenizer without --text.
  void validate() const;
  // "tokens:PATH", "text:PATH" or "" (none given).
  std::string describe() const;
  // The rows (throws std::runtime_error naming the file and line).
  std::vector<std::vector<std::int64_t>> read(const std::string& config, std::int64_t vocab,
                                              std::int64_t positions) const;
};

}  // namespace posbias
