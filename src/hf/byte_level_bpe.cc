#include "posbias/hf/byte_level_bpe.h"

// Oniguruma would #define UChar, which ICU declares as a type.
#define ONIG_ESCAPE_UCHAR_COLLISION
#include <oniguruma.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "posbias/core/strict_json.h"
#include "posbias/core/utf8.h"

namespace posbias {
namespace {

// GPT-2's bytes_to_unicode: the printable bytes stand for themselves, the other 68 for the code
// points 256, 257, ... in byte order; each as its UTF-8 text.
std::array<std::string, 256> byte_characters() {
  std::array<std::string, 256> out;
  unsigned next = 256;
  for (unsigned b = 0; b < 256; ++b) {
    const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
    const unsigned cp = printable ? b : next++;
    std::string& s = out[b];
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else {  // below U+0800: two bytes
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

// One compiled Split pattern (Oniguruma, UTF-8, Ruby syntax as the reference compiles it).
class Pattern {
 public:
  Pattern(const std::string& pattern, const std::string& source) {
    static std::once_flag init;
    std::call_once(init, [] {
      OnigEncoding encodings[] = {ONIG_ENCODING_UTF8};
      onig_initialize(encodings, 1);
    });
    OnigErrorInfo info;
    const auto* p = reinterpret_cast<const OnigUChar*>(pattern.data());
    const int rc = onig_new(&regex_, p, p + pattern.size(), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8,
                            ONIG_SYNTAX_DEFAULT, &info);
    if (rc != ONIG_NORMAL) {
      OnigUChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
      onig_error_code_to_str(message, rc, &info);
      regex_ = nullptr;
      throw std::runtime_error(
          source + ": the split pattern " + quoted_name(pattern) +
          " is not a regex Oniguruma compiles: " + reinterpret_cast<const char*>(message));
    }
  }
  ~Pattern() {
    if (regex_) onig_free(regex_);
  }
  Pattern(Pattern&& o) noexcept : regex_(std::exchange(o.regex_, nullptr)) {}
  Pattern& operator=(Pattern&&) = delete;

  // Isolated split of text[begin, end): the matches and the text between them, in order.
  void split(std::string_view text, std::vector<std::string_view>& out) const {
    const auto* s = reinterpret_cast<const OnigUChar*>(text.data());
    const OnigUChar* end = s + text.size();
    OnigRegion* region = onig_region_new();
    std::size_t kept = 0, from = 0;
    while (from <= text.size()) {
      const int rc = onig_search(regex_, s, end, s + from, end, region, ONIG_OPTION_NONE);
      if (rc == ONIG_MISMATCH) break;
      if (rc < 0) {
        onig_region_free(region, 1);
        throw std::runtime_error("the split pattern failed on a piece of the text");
      }
      const auto b = static_cast<std::size_t>(region->beg[0]),
                 e = static_cast<std::size_t>(region->end[0]);
      if (e == b) {  // an empty match cuts nothing: go on after the next character
        if (b >= text.size()) break;
        from = b + utf8_sequence_length(static_cast<unsigned char>(text[b]));
        continue;
      }
      if (b > kept) out.push_back(text.substr(kept, b - kept));
      out.push_back(text.substr(b, e - b));
      kept = from = e;
    }
    onig_region_free(region, 1);
    if (kept < text.size()) out.push_back(text.substr(kept));
  }

 private:
  OnigRegex regex_ = nullptr;
};

// NFC of valid UTF-8 text (ICU), or the text itself when it is already NFC.
std::string nfc(std::string_view text) {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2* n = unorm2_getNFCInstance(&e);
  std::int32_t length16 = 0;
  u_strFromUTF8(nullptr, 0, &length16, text.data(), static_cast<std::int32_t>(text.size()), &e);
  if (e == U_BUFFER_OVERFLOW_ERROR) e = U_ZERO_ERROR;
  std::u16string utf16(static_cast<std::size_t>(length16), u'\0');
  u_strFromUTF8(utf16.data(), length16, nullptr, text.data(),
                static_cast<std::int32_t>(text.size()), &e);
  if (U_FAILURE(e)) throw std::runtime_error(std::string("NFC: ") + u_errorName(e));
  if (unorm2_isNormalized(n, utf16.data(), length16, &e) && U_SUCCESS(e)) return std::string(text);
  e = U_ZERO_ERROR;
  const std::int32_t cap = 3 * length16 + 16;  // NFC grows a string at most threefold
  std::u16string normal(static_cast<std::size_t>(cap), u'\0');
  const std::int32_t length = unorm2_normalize(n, utf16.data(), length16, normal.data(), cap, &e);
  std::int32_t length8 = 0;
  u_strToUTF8(nullptr, 0, &length8, normal.data(), length, &e);
  if (e == U_BUFFER_OVERFLOW_ERROR) e = U_ZERO_ERROR;
  std::string out(static_cast<std::size_t>(length8), '\0');
  u_strToUTF8(out.data(), length8, nullptr, normal.data(), length, &e);
  if (U_FAILURE(e)) throw std::runtime_error(std::string("NFC: ") + u_errorName(e));
  return out;
}

constexpr std::uint64_t pair_key(std::int64_t a, std::int64_t b) {
  return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint64_t>(b);
}

}  // namespace

struct ByteLevelBpe::Impl {
  TokenizerJson spec;
  std::vector<Pattern> patterns;
  std::array<std::string, 256> chars = byte_characters();
  std::array<std::int64_t, 256> byte_id{};  // -1: no token for the byte
  struct Merge {
    std::int64_t rank, id;
  };
  std::unordered_map<std::uint64_t, Merge> merges;  // (left id, right id) → rank, merged id
  std::array<std::vector<std::size_t>, 256> added_by_first;  // added tokens, longest first

  // The longest added token starting at text[at]; nullptr when none does.
  const AddedToken* added_at(std::string_view text, std::size_t at) const {
    for (const std::size_t k : added_by_first[static_cast<unsigned char>(text[at])]) {
      const AddedToken& a = spec.added_tokens[k];
      if (text.compare(at, a.content.size(), a.content) == 0) return &a;
    }
    return nullptr;
  }
  void encode_segment(std::string_view text, std::vector<std::int64_t>& out) const;
  void encode_piece(const std::string& piece, std::vector<std::int64_t>& out) const;
};

ByteLevelBpe::ByteLevelBpe(TokenizerJson spec, const std::string& source_name)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.spec = std::move(spec);
  for (const std::string& p : m.spec.split_patterns) m.patterns.emplace_back(p, source_name);
  for (std::size_t b = 0; b < 256; ++b) {
    const auto it = m.spec.vocab.find(m.chars[b]);
    m.byte_id[b] = it == m.spec.vocab.end() ? -1 : it->second;
  }
  for (std::size_t rank = 0; rank < m.spec.merges.size(); ++rank) {
    const auto& [a, b] = m.spec.merges[rank];
    const std::int64_t ia = m.spec.vocab.at(a), ib = m.spec.vocab.at(b);
    // The first (lowest-ranked) of two equal merges is the one that applies.
    m.merges.emplace(pair_key(ia, ib),
                     Impl::Merge{static_cast<std::int64_t>(rank), m.spec.vocab.at(a + b)});
  }
  for (std::size_t k = 0; k < m.spec.added_tokens.size(); ++k)
    m.added_by_first[static_cast<unsigned char>(m.spec.added_tokens[k].content[0])].push_back(k);
  for (auto& list : m.added_by_first) {
    std::stable_sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) {
      return m.spec.added_tokens[x].content.size() > m.spec.added_tokens[y].content.size();
    });
  }
}

ByteLevelBpe::~ByteLevelBpe() = default;
ByteLevelBpe::ByteLevelBpe(ByteLevelBpe&&) noexcept = default;
ByteLevelBpe& ByteLevelBpe::operator=(ByteLevelBpe&&) noexcept = default;

std::int64_t ByteLevelBpe::vocab_size() const { return impl_->spec.vocab_size; }

// One piece of the pre-tokenizer (raw bytes): its token, or its bytes' tokens merged by rank.
void ByteLevelBpe::Impl::encode_piece(const std::string& piece,
                                      std::vector<std::int64_t>& out) const {
  if (spec.ignore_merges) {
    std::string mapped;
    for (const char ch : piece) mapped += chars[static_cast<unsigned char>(ch)];
    if (const auto it = spec.vocab.find(mapped); it != spec.vocab.end()) {
      out.push_back(it->second);
      return;
    }
  }
  struct Symbol {
    std::int64_t id;
    std::ptrdiff_t prev, next;  // neighbours alive; -1 at the ends
    bool alive;
  };
  std::vector<Symbol> symbols;
  symbols.reserve(piece.size());
  for (std::size_t i = 0; i < piece.size(); ++i) {
    const auto byte = static_cast<unsigned char>(piece[i]);
    std::int64_t id = byte_id[byte];
    if (id < 0) {
      if (!spec.unk_id)
        throw std::runtime_error("byte 0x" + std::string(1, "0123456789abcdef"[byte >> 4]) +
                                 "0123456789abcdef"[byte & 15] +
                                 " has no token in the vocabulary and there is no unk_token");
      id = *spec.unk_id;
    }
    const auto n = static_cast<std::ptrdiff_t>(i);
    symbols.push_back({id, n - 1, i + 1 < piece.size() ? n + 1 : -1, true});
  }
  // Candidate merges (rank, left position): the lowest rank first, the leftmost among equals.
  using Candidate = std::pair<std::int64_t, std::ptrdiff_t>;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  auto consider = [&](std::ptrdiff_t left) {
    if (left < 0 || symbols[left].next < 0) return;
    const auto it = merges.find(pair_key(symbols[left].id, symbols[symbols[left].next].id));
    if (it != merges.end()) queue.emplace(it->second.rank, left);
  };
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(symbols.size()); ++i) consider(i);
  while (!queue.empty()) {
    const auto [rank, left] = queue.top();
    queue.pop();
    Symbol& a = symbols[left];
    if (!a.alive || a.next < 0) continue;
    Symbol& b = symbols[a.next];
    const auto it = merges.find(pair_key(a.id, b.id));
    if (it == merges.end() || it->second.rank != rank) continue;  // stale: a side has changed
    a.id = it->second.id;
    b.alive = false;
    a.next = b.next;
    if (b.next >= 0) symbols[b.next].prev = left;
    consider(a.prev);
    consider(left);
  }
  for (const Symbol& s : symbols)
    if (s.alive) out.push_back(s.id);
}

// Text between added tokens: normalized, pre-tokenized, each piece encoded.
void ByteLevelBpe::Impl::encode_segment(std::string_view raw,
                                        std::vector<std::int64_t>& out) const {
  const std::string normal = spec.nfc ? nfc(raw) : std::string(raw);
  std::vector<std::string_view> pieces{normal}, next;
  for (const Pattern& p : patterns) {
    next.clear();
    for (const std::string_view piece : pieces) p.split(piece, next);
    pieces.swap(next);
  }
  for (const std::string_view piece : pieces) {
    if (spec.add_prefix_space && piece.front() != ' ')
      encode_piece(" " + std::string(piece), out);
    else
      encode_piece(std::string(piece), out);
  }
}

std::vector<std::int64_t> ByteLevelBpe::encode(std::string_view text) const {
  require_utf8(text);
  std::vector<std::int64_t> out = impl_->spec.prefix_ids;
  std::size_t segment = 0;
  for (std::size_t i = 0; i < text.size();) {
    const AddedToken* added = impl_->added_at(text, i);
    if (!added) {
      ++i;
      continue;
    }
    if (i > segment) impl_->encode_segment(text.substr(segment, i - segment), out);
    out.push_back(added->id);
    i += added->content.size();
    segment = i;
  }
  if (segment < text.size()) impl_->encode_segment(text.substr(segment), out);
  out.insert(out.end(), impl_->spec.suffix_ids.begin(), impl_->spec.suffix_ids.end());
  return out;
}

}  // namespace posbias
