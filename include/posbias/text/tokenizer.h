// Tokenizers for text runs: SentencePiece BPE trained by posbias on the training split
// (Debian's libsentencepiece), or raw UTF-8 bytes. Both encode exactly: decode(encode(lines))
// gives the lines back, each followed by "\n", so held-out bits per byte compare across
// tokenizers (token_bytes() gives each id's share of the text).
//
// SentencePiece settings: BPE, byte fallback (no unknown pieces), identity normalization, no
// dummy prefix and whitespace kept as it is (so the bytes are the text's own), digits split,
// character coverage 1, no BOS/EOS. The newline between lines is the byte piece <0x0A>.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace posbias {

class SpmProcessor;

enum class TokenizerKind { kSpm, kBytes };
TokenizerKind parse_tokenizer_kind(const std::string& name);  // spm | bytes
std::string to_string(TokenizerKind kind);

// Bounds of a SentencePiece vocabulary: the 256 byte pieces and <unk> come first.
constexpr std::int64_t kMinSpmVocab = 300, kMaxSpmVocab = 65536;

class Tokenizer {
 public:
  static Tokenizer bytes();
  // Trains SentencePiece BPE on `lines` (throws std::runtime_error with SentencePiece's message
  // when it cannot, e.g. a vocabulary larger than the text supports).
  static Tokenizer train_spm(const std::vector<std::string>& lines, std::int64_t vocab_size);
  // A SentencePiece model file (throws std::runtime_error naming the file when it is not one,
  // or has no byte pieces).
  static Tokenizer load_spm(const std::filesystem::path& model_file);

  TokenizerKind kind() const { return kind_; }
  std::int64_t vocab_size() const { return static_cast<std::int64_t>(token_bytes_.size()); }
  // The SentencePiece model as its file holds it (empty for bytes).
  const std::string& serialized() const { return serialized_; }
  void save(const std::filesystem::path& model_file) const;  // atomic; spm only

  // Lines → one id stream, the newline id after each line.
  std::vector<std::int32_t> encode(const std::vector<std::string>& lines) const;
  std::string decode(const std::vector<std::int32_t>& ids) const;
  std::int32_t newline_id() const { return newline_id_; }
  // UTF-8 bytes of the text each id stands for; the bits-per-byte denominator.
  const std::vector<std::int32_t>& token_bytes() const { return token_bytes_; }

 private:
  TokenizerKind kind_ = TokenizerKind::kBytes;
  std::shared_ptr<const SpmProcessor> spm_;
  std::string serialized_;
  std::vector<std::int32_t> token_bytes_;
  std::int32_t newline_id_ = '\n';
  static Tokenizer from_serialized(std::string serialized, const std::string& source);
};

}  // namespace posbias
