// Byte-level BPE encoding, as Hugging Face's tokenizers encode with a tokenizer.json of GPT-2,
// Qwen2 or Llama 3 (tokenizer_json.h reads it). One text (valid UTF-8) goes through:
//   1. added tokens: the text is cut at every added token (leftmost, then longest), which
//      become their own ids; the rest goes on piece by piece,
//   2. the normalizer (NFC, through ICU),
//   3. the pre-tokenizer: each Split regex (Oniguruma, the engine the reference uses) cuts
//      every piece into its matches and the text between them; ByteLevel puts a space before a
//      piece when add_prefix_space, and maps each byte to its printable character (GPT-2's
//      bytes_to_unicode),
//   4. BPE per piece: the piece as one token when ignore_merges and it is in the vocabulary,
//      else its characters merged pair by pair, the lowest-ranked merge first (leftmost among
//      equals), until no merge applies,
//   5. the post-processor's special ids around the whole (Llama 3's BOS).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "posbias/hf/tokenizer_json.h"

namespace posbias {

class ByteLevelBpe {
 public:
  // Compiles the split patterns (throws std::runtime_error naming a pattern Oniguruma refuses).
  explicit ByteLevelBpe(TokenizerJson spec, const std::string& source_name);
  ~ByteLevelBpe();
  ByteLevelBpe(ByteLevelBpe&&) noexcept;
  ByteLevelBpe& operator=(ByteLevelBpe&&) noexcept;

  // Throws std::invalid_argument for text that is not valid UTF-8, and std::runtime_error for
  // a byte with no token and no unk_token.
  std::vector<std::int64_t> encode(std::string_view text) const;
  std::int64_t vocab_size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace posbias
