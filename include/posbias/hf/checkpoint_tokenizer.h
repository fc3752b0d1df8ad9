// The tokenizer that ships with a Hugging Face checkpoint, which `birth --text` and `heads
// --text` encode text with. Two kinds:
//   tokenizer.json   byte-level BPE (GPT-2, Qwen2, Llama 3): byte_level_bpe.h, with the
//                    special ids its post-processor puts around the text (Llama 3's BOS)
//   tokenizer.model  SentencePiece (Llama 2, Mistral), through Debian's libsentencepiece: the
//                    model's BOS first, as their Hugging Face tokenizers add it, then the
//                    pieces; text that spells a special token is encoded as text
// Found beside config.json, or given (--tokenizer: the file, or the folder holding it). A
// folder with both (Llama 2 and Mistral ship both) is read through tokenizer.model, the
// SentencePiece model their tokenizer.json was converted from.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace posbias {

class ByteLevelBpe;
class SpmProcessor;

class CheckpointTokenizer {
 public:
  // `given` when not empty, else the folder of `config`. Throws std::runtime_error naming what
  // is missing ("no tokenizer.json or tokenizer.model next to CONFIG; give --tokenizer") or
  // what the file's reader refuses.
  static CheckpointTokenizer find(const std::filesystem::path& config,
                                  const std::filesystem::path& given);
  // A tokenizer.json (by its .json name) or a SentencePiece model (any other name).
  static CheckpointTokenizer load(const std::filesystem::path& file);

  // The ids of one text (UTF-8; throws std::invalid_argument when it is not).
  std::vector<std::int64_t> encode(std::string_view text) const;
  // 1 + the largest id the tokenizer can give.
  std::int64_t vocab_size() const;
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::shared_ptr<const ByteLevelBpe> bpe_;
  std::shared_ptr<const SpmProcessor> spm_;
};

}  // namespace posbias
