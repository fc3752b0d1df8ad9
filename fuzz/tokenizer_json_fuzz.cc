// libFuzzer target: tokenizer.json parsing must reject or accept any bytes without crashing, and
// an accepted tokenizer must encode fixed texts (ASCII, digits, contractions, UTF-8, an added
// token's text) into ids inside its vocabulary, the same ids each time.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/hf/byte_level_bpe.h"
#include "posbias/hf/tokenizer_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  posbias::TokenizerJson spec;
  try {
    spec = posbias::parse_tokenizer_json(text, "fuzz");
  } catch (const std::exception&) {
    return 0;
  }
  if (spec.vocab.empty() || spec.vocab_size <= 0 || spec.vocab_size > posbias::kMaxTokenizerId + 1)
    __builtin_trap();
  std::vector<std::string> inputs = {"Hello world", "  it's 12345\n\ttabs",
                                     "caf\xC3\xA9 \xF0\x9F\x91\x8B", "ab<|end|>ba"};
  for (const posbias::AddedToken& a : spec.added_tokens) inputs.push_back("x" + a.content + "y");
  const std::int64_t vocab = spec.vocab_size;
  try {
    const posbias::ByteLevelBpe bpe(std::move(spec), "fuzz");
    for (const std::string& input : inputs) {
      std::vector<std::int64_t> ids;
      try {
        ids = bpe.encode(input);
      } catch (const std::runtime_error&) {
        continue;  // a byte without a token and no unk_token
      }
      for (const std::int64_t id : ids)
        if (id < 0 || id >= vocab) __builtin_trap();
      if (bpe.encode(input) != ids) __builtin_trap();
    }
  } catch (const std::runtime_error&) {
    return 0;  // a split pattern Oniguruma does not compile
  }
  return 0;
}
