#include "posbias/text/tokenizer.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/enum_names.h"
#include "posbias/text/spm_processor.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxModelBytes = 64u << 20;

}  // namespace

constexpr EnumNames<TokenizerKind, 2> kTokenizerNames{
    {{TokenizerKind::kSpm, "spm"}, {TokenizerKind::kBytes, "bytes"}}};

TokenizerKind parse_tokenizer_kind(const std::string& name) {
  return value_of(kTokenizerNames, name, "tokenizer");
}

std::string to_string(TokenizerKind kind) { return std::string(name_of(kTokenizerNames, kind)); }

Tokenizer Tokenizer::bytes() {
  Tokenizer t;
  t.kind_ = TokenizerKind::kBytes;
  t.token_bytes_.assign(256, 1);
  t.newline_id_ = '\n';
  return t;
}

Tokenizer Tokenizer::from_serialized(std::string serialized, const std::string& source) {
  auto spm = std::make_shared<const SpmProcessor>(SpmProcessor::load(serialized, source));
  const int n = spm->size();
  const int newline = spm->piece_to_id("<0x0A>");
  if (n < 257 || newline < 0 || newline >= n ||
      spm->kind(newline) != SpmProcessor::PieceKind::kByte) {
    throw std::runtime_error(source +
                             " is a SentencePiece model without byte pieces (posbias trains its "
                             "own with byte fallback; use `posbias train --tokenizer spm`)");
  }
  Tokenizer t;
  t.kind_ = TokenizerKind::kSpm;
  t.serialized_ = std::move(serialized);
  t.newline_id_ = newline;
  t.token_bytes_.resize(static_cast<std::size_t>(n));
  for (int id = 0; id < n; ++id) {
    std::int32_t bytes = 0;
    const SpmProcessor::PieceKind kind = spm->kind(id);
    if (kind == SpmProcessor::PieceKind::kByte) {
      bytes = 1;
    } else if (kind == SpmProcessor::PieceKind::kNormal) {
      // "▁" (3 bytes) stands for one space.
      const std::string_view text = spm->piece(id);
      for (std::size_t i = 0; i < text.size(); ++i, ++bytes) {
        if (text.compare(i, 3, "\xE2\x96\x81") == 0) i += 2;
      }
    }
    t.token_bytes_[static_cast<std::size_t>(id)] = bytes;
  }
  t.spm_ = std::move(spm);
  return t;
}

Tokenizer Tokenizer::train_spm(const std::vector<std::string>& lines, std::int64_t vocab_size) {
  if (vocab_size < kMinSpmVocab || vocab_size > kMaxSpmVocab) {
    throw std::invalid_argument("a SentencePiece vocabulary must be in " +
                                std::to_string(kMinSpmVocab) + ".." + std::to_string(kMaxSpmVocab));
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const std::vector<std::pair<std::string, std::string>> options{
      {"model_type", "bpe"},
      {"vocab_size", std::to_string(vocab_size)},
      {"byte_fallback", "true"},
      {"normalization_rule_name", "identity"},
      {"add_dummy_prefix", "false"},
      {"remove_extra_whitespaces", "false"},
      {"split_digits", "true"},
      {"character_coverage", "1.0"},
      {"bos_id", "-1"},
      {"eos_id", "-1"},
      {"max_sentence_length", "65536"},
      {"num_threads", std::to_string(threads)},
      {"minloglevel", "2"}};
  std::string model = SpmProcessor::train(lines, options);
  return from_serialized(std::move(model), "the trained tokenizer");
}

Tokenizer Tokenizer::load_spm(const std::filesystem::path& model_file) {
  return from_serialized(read_bounded_file(model_file, kMaxModelBytes, "64 MiB tokenizer"),
                         "'" + model_file.string() + "'");
}

void Tokenizer::save(const std::filesystem::path& model_file) const {
  if (kind_ != TokenizerKind::kSpm) throw std::logic_error("only a SentencePiece model is saved");
  write_file_atomic(model_file, serialized_);
}

std::vector<std::int32_t> Tokenizer::encode(const std::vector<std::string>& lines) const {
  std::vector<std::int32_t> out;
  for (const std::string& line : lines) {
    if (kind_ == TokenizerKind::kBytes) {
      for (unsigned char ch : line) out.push_back(ch);
    } else {
      const std::vector<int> ids = spm_->encode(line);
      out.insert(out.end(), ids.begin(), ids.end());
    }
    out.push_back(newline_id_);
  }
  return out;
}

std::string Tokenizer::decode(const std::vector<std::int32_t>& ids) const {
  std::string text;
  for (std::int32_t id : ids) {
    if (id < 0 || id >= vocab_size()) throw std::out_of_range("token id outside the vocabulary");
  }
  if (kind_ == TokenizerKind::kBytes) {
    for (std::int32_t id : ids) text += static_cast<char>(id);
    return text;
  }
  return spm_->decode(std::vector<int>(ids.begin(), ids.end()));
}

}  // namespace posbias
