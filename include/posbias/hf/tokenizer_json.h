// tokenizer.json of a Hugging Face checkpoint, the byte-level BPE kind (GPT-2, Qwen2, Llama 3),
// read strictly into what encoding needs (byte_level_bpe.h encodes with it). Untrusted: sizes
// are capped, every id and merge is checked against the vocabulary, and what posbias does not
// implement is refused by its field rather than encoded differently. Accepted:
//   normalizer      null or NFC (Qwen2)
//   pre_tokenizer   ByteLevel, or a Sequence of Split (a Regex, behavior Isolated) steps ending
//                   in ByteLevel (Llama 3, Qwen2)
//   model           BPE: vocab, merges ("a b" or ["a", "b"], by rank), unk_token, ignore_merges
//   post_processor  null, ByteLevel, TemplateProcessing (special tokens around the text, e.g.
//                   Llama 3's BOS) or a Sequence of those
//   added_tokens    matched in the raw text before anything else, longest first
// Errors are one line: "SOURCE: <field>: <what is wrong>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace posbias {

constexpr std::size_t kMaxTokenizerJsonBytes = std::size_t{64} << 20;  // Qwen2's is 7 MB
constexpr std::size_t kMaxTokenizerVocab = 1'000'000;                  // tokens and merges each
constexpr std::int64_t kMaxTokenizerId = 10'000'000;

// GPT-2's pre-tokenizer pattern, which ByteLevel with use_regex applies.
inline constexpr std::string_view kGpt2SplitPattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct AddedToken {
  std::string content;
  std::int64_t id = 0;
};

struct TokenizerJson {
  std::unordered_map<std::string, std::int64_t> vocab;      // token (byte-level chars) → id
  std::vector<std::pair<std::string, std::string>> merges;  // by rank, 0 first
  std::vector<AddedToken> added_tokens;
  bool nfc = false;  // the normalizer: NFC, or none
  // Regex split steps in order (each Isolated: matches and the text between them are pieces);
  // ByteLevel's use_regex adds kGpt2SplitPattern after them.
  std::vector<std::string> split_patterns;
  bool add_prefix_space = false;  // ByteLevel: a space before each piece that lacks one
  bool ignore_merges = false;     // a piece that is one vocabulary token is that token
  std::optional<std::int64_t> unk_id;
  // The post-processor's special tokens before and after the text (Llama 3: BOS before).
  std::vector<std::int64_t> prefix_ids, suffix_ids;
  std::int64_t vocab_size = 0;  // 1 + the largest id, added tokens included
};

// Parses the text of a tokenizer.json (source_name prefixes every message). Throws
// std::runtime_error for text too large, not JSON, or a part it refuses.
TokenizerJson parse_tokenizer_json(std::string_view text, const std::string& source_name);
// Reads and parses a file of at most kMaxTokenizerJsonBytes.
TokenizerJson read_tokenizer_json(const std::filesystem::path& path);

}  // namespace posbias
