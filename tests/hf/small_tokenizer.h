// A byte-level BPE tokenizer.json of 6 ids in GPT-2's layout, small enough for the golden
// models' vocabulary of 37: a, b, Ġ (the space), ab, Ġab and the added token <|end|>, with the
// merges "a b" and "Ġ ab". Tests break one part at a time, or measure text with it.
#pragma once

#include <nlohmann/json.hpp>

namespace posbias_test {

inline nlohmann::json small_tokenizer() {
  const nlohmann::json vocab = {{"a", 0},
                                {"b", 1},
                                {"\xC4\xA0", 2},
                                {"ab", 3},
                                {"\xC4\xA0"
                                 "ab",
                                 4}};
  return {{"version", "1.0"},
          {"truncation", nullptr},
          {"padding", nullptr},
          {"added_tokens", {{{"id", 5}, {"content", "<|end|>"}, {"special", true}}}},
          {"normalizer", nullptr},
          {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
          {"post_processor", {{"type", "ByteLevel"}}},
          {"decoder", {{"type", "ByteLevel"}}},
          {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", {"a b", "\xC4\xA0 ab"}}}}};
}

}  // namespace posbias_test
