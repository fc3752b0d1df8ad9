#include "posbias/text/tokenizer.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <stdexcept>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxModelBytes = 64u << 20;

class LineIterator : public sentencepiece::SentenceIterator {
 public:
  explicit LineIterator(const std::vector<std::string>& lines) : lines_(lines) {}
  bool done() const override { return i_ >= lines_.size(); }
  void Next() override { ++i_; }
  const std::string& value() const override { return lines_[i_]; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  const std::vector<std::string>& lines_;
  std::size_t i_ = 0;
};

}  // namespace

struct Tokenizer::Spm {
  sentencepiece::SentencePieceProcessor processor;
};

TokenizerKind parse_tokenizer_kind(const std::string& name) {
  if (name == "spm") return TokenizerKind::kSpm;
  if (name == "bytes") return TokenizerKind::kBytes;
  throw std::invalid_argument("tokenizer must be spm or bytes, got '" + name.substr(0, 40) + "'");
}

std::string to_string(TokenizerKind kind) { return kind == TokenizerKind::kSpm ? "spm" : "bytes"; }

Tokenizer Tokenizer::bytes() {
  Tokenizer t;
  t.kind_ = TokenizerKind::kBytes;
  t.token_bytes_.assign(256, 1);
  t.newline_id_ = '\n';
  return t;
}

Tokenizer Tokenizer::from_serialized(std::string serialized, const std::string& source) {
  auto spm = std::make_shared<Spm>();
  if (serialized.empty() || !spm->processor.LoadFromSerializedProto(serialized).ok()) {
    throw std::runtime_error(source + " is not a SentencePiece model");
  }
  const int n = spm->processor.GetPieceSize();
  const int newline = spm->processor.PieceToId("<0x0A>");
  if (n < 257 || !spm->processor.IsByte(newline)) {
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
    if (spm->processor.IsByte(id)) {
      bytes = 1;
    } else if (!spm->processor.IsUnknown(id) && !spm->processor.IsControl(id)) {
      // "▁" (3 bytes) stands for one space.
      const std::string& piece = spm->processor.IdToPiece(id);
      for (std::size_t i = 0; i < piece.size(); ++i, ++bytes) {
        if (piece.compare(i, 3, "\xE2\x96\x81") == 0) i += 2;
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
  LineIterator it(lines);
  std::string model;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const sentencepiece::util::Status status =
      sentencepiece::SentencePieceTrainer::Train({{"model_type", "bpe"},
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
                                                  {"minloglevel", "2"}},
                                                 &it, &model);
  if (!status.ok()) {
    throw std::runtime_error("SentencePiece training failed: " + status.ToString());
  }
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
  std::vector<int> ids;
  for (const std::string& line : lines) {
    if (kind_ == TokenizerKind::kBytes) {
      for (unsigned char ch : line) out.push_back(ch);
    } else {
      const auto status = spm_->processor.Encode(line, &ids);
      if (!status.ok()) throw std::runtime_error("SentencePiece: " + status.ToString());
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
  const std::vector<int> v(ids.begin(), ids.end());
  const auto status = spm_->processor.Decode(v, &text);
  if (!status.ok()) throw std::runtime_error("SentencePiece: " + status.ToString());
  return text;
}

}  // namespace posbias
