#include "posbias/hf/tokenizer_json.h"

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_set>

#include "posbias/core/bounded_read.h"
#include "posbias/core/strict_json.h"

namespace posbias {
namespace {

using nlohmann::json;

constexpr int kMaxTokenizerDepth = 32;
constexpr std::size_t kMaxTokenBytes = 1024;    // a token's or a pattern's text
constexpr std::size_t kMaxPatternBytes = 4096;  // a Split step's regex
constexpr std::size_t kMaxSplitSteps = 16;      // pre-tokenizer steps
constexpr std::size_t kMaxTemplateItems = 64;   // a template's parts

// One parse: the source named in every message.
class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw std::runtime_error(source_ + ": " + field + ": " + what);
  }
  const json& object(const json& j, const std::string& field) const {
    if (!j.is_object()) fail(field, "must be an object, got " + brief_json(j));
    return j;
  }
  // Refuses a key outside `known` (posbias would ignore what it does not implement).
  void known_keys(const json& j, const std::string& field,
                  std::initializer_list<std::string_view> known) const {
    for (const auto& [key, value] : j.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end())
        fail(field, "unknown field " + quoted_name(key));
    }
  }
  std::string type_of(const json& j, const std::string& field) const {
    object(j, field);
    const auto t = j.find("type");
    if (t == j.end() || !t->is_string()) fail(field, "has no string field \"type\"");
    return t->get<std::string>();
  }
  bool flag(const json& j, const char* key, const std::string& field, bool fallback) const {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) fail(field + "." + key, "must be true or false, got " + brief_json(*it));
    return it->get<bool>();
  }
  std::string text(const json& j, const std::string& field, std::size_t max_bytes) const {
    if (!j.is_string()) fail(field, "must be a string, got " + brief_json(j));
    const std::string s = j.get<std::string>();
    if (s.empty() || s.size() > max_bytes)
      fail(field,
           "must be 1.." + std::to_string(max_bytes) + " bytes, got " + std::to_string(s.size()));
    return s;
  }
  std::int64_t id(const json& j, const std::string& field) const {
    if (!j.is_number_integer() || j.get<std::int64_t>() < 0 ||
        j.get<std::int64_t>() > kMaxTokenizerId)
      fail(field, "must be a token id in 0.." + std::to_string(kMaxTokenizerId) + ", got " +
                      brief_json(j));
    return j.get<std::int64_t>();
  }

 private:
  const std::string& source_;
};

void read_normalizer(const Reader& r, const json& j, TokenizerJson& t) {
  if (j.is_null()) return;
  const std::string type = r.type_of(j, "normalizer");
  if (type != "NFC")
    r.fail("normalizer", "type " + quoted_name(type) + " is not supported (null or NFC)");
  r.known_keys(j, "normalizer", {"type"});
  t.nfc = true;
}

// ByteLevel's options (the pre-tokenizer's; the post-processor's change offsets only).
void read_byte_level(const Reader& r, const json& j, const std::string& field, TokenizerJson& t) {
  r.known_keys(j, field, {"type", "add_prefix_space", "trim_offsets", "use_regex"});
  t.add_prefix_space = r.flag(j, "add_prefix_space", field, true);
  r.flag(j, "trim_offsets", field, true);
  if (r.flag(j, "use_regex", field, true)) t.split_patterns.emplace_back(kGpt2SplitPattern);
}

void read_split(const Reader& r, const json& j, const std::string& field, TokenizerJson& t) {
  r.known_keys(j, field, {"type", "pattern", "behavior", "invert"});
  const auto pattern = j.find("pattern");
  if (pattern == j.end()) r.fail(field, "has no pattern");
  r.object(*pattern, field + ".pattern");
  const auto regex = pattern->find("Regex");
  if (regex == pattern->end() || pattern->size() != 1)
    r.fail(field + ".pattern", "must be {\"Regex\": ...} (a String pattern is not supported)");
  const auto behavior = j.find("behavior");
  if (behavior == j.end() || *behavior != "Isolated")
    r.fail(field + ".behavior", "must be \"Isolated\" (the only split behavior supported)");
  if (r.flag(j, "invert", field, false)) r.fail(field + ".invert", "true is not supported");
  t.split_patterns.push_back(r.text(*regex, field + ".pattern.Regex", kMaxPatternBytes));
}

void read_pre_tokenizer(const Reader& r, const json& j, TokenizerJson& t) {
  const std::string type = r.type_of(j, "pre_tokenizer");
  if (type == "ByteLevel") return read_byte_level(r, j, "pre_tokenizer", t);
  if (type != "Sequence")
    r.fail("pre_tokenizer", "type " + quoted_name(type) +
                                " is not supported (a byte-level BPE tokenizer has ByteLevel, or "
                                "a Sequence of Split steps ending in ByteLevel)");
  r.known_keys(j, "pre_tokenizer", {"type", "pretokenizers"});
  const auto steps = j.find("pretokenizers");
  if (steps == j.end() || !steps->is_array() || steps->empty() || steps->size() > kMaxSplitSteps)
    r.fail("pre_tokenizer.pretokenizers",
           "must be an array of 1.." + std::to_string(kMaxSplitSteps) + " steps");
  for (std::size_t i = 0; i < steps->size(); ++i) {
    const std::string field = "pre_tokenizer.pretokenizers[" + std::to_string(i) + "]";
    const std::string step = r.type_of((*steps)[i], field);
    const bool last = i + 1 == steps->size();
    if (step == "Split" && !last) {
      read_split(r, (*steps)[i], field, t);
    } else if (step == "ByteLevel" && last) {
      read_byte_level(r, (*steps)[i], field, t);
    } else {
      r.fail(field, "type " + quoted_name(step) +
                        " is not supported here (Split steps, then ByteLevel last)");
    }
  }
}

void read_vocab(const Reader& r, const json& vocab, TokenizerJson& t) {
  r.object(vocab, "model.vocab");
  if (vocab.empty() || vocab.size() > kMaxTokenizerVocab)
    r.fail("model.vocab", "must hold 1.." + std::to_string(kMaxTokenizerVocab) + " tokens, got " +
                              std::to_string(vocab.size()));
  std::unordered_map<std::int64_t, std::string> token_of;
  for (const auto& [token, id_json] : vocab.items()) {
    if (token.empty() || token.size() > kMaxTokenBytes)
      r.fail("model.vocab", "a token of " + std::to_string(token.size()) + " bytes (allowed 1.." +
                                std::to_string(kMaxTokenBytes) + ")");
    const std::int64_t id = r.id(id_json, "model.vocab[" + quoted_name(token) + "]");
    const auto [at, fresh] = token_of.emplace(id, token);
    if (!fresh)
      r.fail("model.vocab", "id " + std::to_string(id) + " is given to both " +
                                quoted_name(at->second) + " and " + quoted_name(token));
    t.vocab.emplace(token, id);
    t.vocab_size = std::max(t.vocab_size, id + 1);
  }
}

// "a b" (one space between the parts) or ["a", "b"]; both parts and their join in the vocab.
void read_merges(const Reader& r, const json& merges, TokenizerJson& t) {
  if (!merges.is_array() || merges.size() > kMaxTokenizerVocab)
    r.fail("model.merges",
           "must be an array of at most " + std::to_string(kMaxTokenizerVocab) + " merges");
  t.merges.reserve(merges.size());
  for (std::size_t i = 0; i < merges.size(); ++i) {
    const json& m = merges[i];
    const std::string field = "model.merges[" + std::to_string(i) + "]";
    std::string a, b;
    if (m.is_string()) {
      const std::string s = r.text(m, field, 2 * kMaxTokenBytes + 1);
      const std::size_t space = s.find(' ');
      if (space == std::string::npos || space == 0 || space + 1 == s.size() ||
          s.find(' ', space + 1) != std::string::npos)
        r.fail(field, quoted_name(s) + " is not two tokens separated by one space");
      a = s.substr(0, space), b = s.substr(space + 1);
    } else if (m.is_array() && m.size() == 2) {
      a = r.text(m[0], field + "[0]", kMaxTokenBytes);
      b = r.text(m[1], field + "[1]", kMaxTokenBytes);
    } else {
      r.fail(field, "must be \"a b\" or [\"a\", \"b\"], got " + brief_json(m));
    }
    for (const std::string& part : {a, b}) {
      if (t.vocab.count(part) == 0)
        r.fail(field, "names " + quoted_name(part) + ", which is not in model.vocab");
    }
    if (t.vocab.count(a + b) == 0)
      r.fail(field, "makes " + quoted_name(a + b) + ", which is not in model.vocab");
    t.merges.emplace_back(std::move(a), std::move(b));
  }
}

void read_model(const Reader& r, const json& j, TokenizerJson& t) {
  const std::string type = r.type_of(j, "model");
  if (type != "BPE")
    r.fail("model", "type " + quoted_name(type) +
                        " is not supported (posbias encodes byte-level BPE tokenizer.json; for a "
                        "SentencePiece checkpoint give its tokenizer.model)");
  r.known_keys(j, "model",
               {"type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix",
                "fuse_unk", "byte_fallback", "ignore_merges", "vocab", "merges"});
  if (const auto d = j.find("dropout"); d != j.end() && !d->is_null() && *d != 0 && *d != 1)
    r.fail("model.dropout", "BPE dropout " + brief_json(*d) + " is not supported (null)");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    if (const auto s = j.find(key); s != j.end() && !s->is_null() && *s != "")
      r.fail(std::string("model.") + key, brief_json(*s) + " is not supported (null)");
  }
  if (r.flag(j, "byte_fallback", "model", false))
    r.fail("model.byte_fallback", "true is not supported (a byte-level BPE has every byte)");
  r.flag(j, "fuse_unk", "model", false);
  t.ignore_merges = r.flag(j, "ignore_merges", "model", false);
  const auto vocab = j.find("vocab");
  if (vocab == j.end()) r.fail("model", "has no vocab");
  read_vocab(r, *vocab, t);
  const auto merges = j.find("merges");
  if (merges == j.end()) r.fail("model", "has no merges");
  read_merges(r, *merges, t);
  if (const auto unk = j.find("unk_token"); unk != j.end() && !unk->is_null()) {
    const std::string token = r.text(*unk, "model.unk_token", kMaxTokenBytes);
    const auto it = t.vocab.find(token);
    if (it == t.vocab.end())
      r.fail("model.unk_token", quoted_name(token) + " is not in model.vocab");
    t.unk_id = it->second;
  }
}

void read_added_tokens(const Reader& r, const json& j, TokenizerJson& t) {
  if (!j.is_array() || j.size() > kMaxTokenizerVocab)
    r.fail("added_tokens", "must be an array of at most " + std::to_string(kMaxTokenizerVocab));
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string field = "added_tokens[" + std::to_string(i) + "]";
    const json& a = r.object(j[i], field);
    r.known_keys(a, field,
                 {"id", "content", "single_word", "lstrip", "rstrip", "normalized", "special"});
    for (const char* key : {"single_word", "lstrip", "rstrip"}) {
      if (r.flag(a, key, field, false))
        r.fail(field + "." + key,
               "true is not supported (posbias matches added tokens as they "
               "are written)");
    }
    r.flag(a, "normalized", field, false);
    r.flag(a, "special", field, false);
    if (!a.contains("id") || !a.contains("content")) r.fail(field, "needs id and content");
    AddedToken token{r.text(a["content"], field + ".content", kMaxTokenBytes),
                     r.id(a["id"], field + ".id")};
    if (const auto v = t.vocab.find(token.content); v != t.vocab.end() && v->second != token.id)
      r.fail(field, quoted_name(token.content) + " has id " + std::to_string(token.id) +
                        " here and " + std::to_string(v->second) + " in model.vocab");
    t.vocab_size = std::max(t.vocab_size, token.id + 1);
    t.added_tokens.push_back(std::move(token));
  }
}

// The ids a TemplateProcessing's single-sequence template puts before and after the text.
void read_template(const Reader& r, const json& j, const std::string& field, TokenizerJson& t) {
  r.known_keys(j, field, {"type", "single", "pair", "special_tokens"});
  const auto single = j.find("single");
  if (single == j.end() || !single->is_array() || single->size() > kMaxTemplateItems)
    r.fail(field + ".single",
           "must be an array of at most " + std::to_string(kMaxTemplateItems) + " parts");
  const auto specials = j.find("special_tokens");
  if (specials != j.end() && !specials->is_object())
    r.fail(field + ".special_tokens", "must be an object");
  bool text_seen = false;
  for (std::size_t i = 0; i < single->size(); ++i) {
    const std::string part = field + ".single[" + std::to_string(i) + "]";
    const json& p = r.object((*single)[i], part);
    if (p.size() != 1) r.fail(part, "must be {\"SpecialToken\": ...} or {\"Sequence\": ...}");
    if (p.contains("Sequence")) {
      if (text_seen) r.fail(part, "a second Sequence in a single-sequence template");
      text_seen = true;
      continue;
    }
    if (!p.contains("SpecialToken"))
      r.fail(part, "must be {\"SpecialToken\": ...} or {\"Sequence\": ...}");
    const json& special = r.object(p["SpecialToken"], part + ".SpecialToken");
    if (!special.contains("id")) r.fail(part + ".SpecialToken", "has no id");
    const std::string name = r.text(special["id"], part + ".SpecialToken.id", kMaxTokenBytes);
    if (specials == j.end() || !specials->contains(name))
      r.fail(part, quoted_name(name) + " is not in " + field + ".special_tokens");
    const json& entry =
        r.object((*specials)[name], field + ".special_tokens[" + quoted_name(name) + "]");
    const auto ids = entry.find("ids");
    if (ids == entry.end() || !ids->is_array() || ids->empty() || ids->size() > kMaxTemplateItems)
      r.fail(field + ".special_tokens[" + quoted_name(name) + "].ids",
             "must be 1.." + std::to_string(kMaxTemplateItems) + " ids");
    for (const json& id : *ids) {
      const std::int64_t v = r.id(id, field + ".special_tokens[" + quoted_name(name) + "].ids");
      (text_seen ? t.suffix_ids : t.prefix_ids).push_back(v);
    }
  }
  if (!text_seen) r.fail(field + ".single", "has no Sequence (where the text goes)");
}

void read_post_processor(const Reader& r, const json& j, const std::string& field, TokenizerJson& t,
                         bool nested) {
  if (j.is_null()) return;
  const std::string type = r.type_of(j, field);
  if (type == "ByteLevel") {
    r.known_keys(j, field, {"type", "add_prefix_space", "trim_offsets", "use_regex"});
  } else if (type == "TemplateProcessing") {
    if (!t.prefix_ids.empty() || !t.suffix_ids.empty()) r.fail(field, "a second template");
    read_template(r, j, field, t);
  } else if (type == "Sequence" && !nested) {
    r.known_keys(j, field, {"type", "processors"});
    const auto steps = j.find("processors");
    if (steps == j.end() || !steps->is_array() || steps->size() > kMaxSplitSteps)
      r.fail(field + ".processors",
             "must be an array of at most " + std::to_string(kMaxSplitSteps) + " processors");
    for (std::size_t i = 0; i < steps->size(); ++i)
      read_post_processor(r, (*steps)[i], field + ".processors[" + std::to_string(i) + "]", t,
                          true);
  } else {
    r.fail(field, "type " + quoted_name(type) +
                      " is not supported (ByteLevel, TemplateProcessing or a Sequence of them)");
  }
}

}  // namespace

TokenizerJson parse_tokenizer_json(std::string_view text, const std::string& source_name) {
  if (text.size() > kMaxTokenizerJsonBytes)
    throw std::runtime_error(source_name + ": " + std::to_string(text.size()) +
                             " bytes is more than the " + std::to_string(kMaxTokenizerJsonBytes) +
                             "-byte limit for a tokenizer.json");
  const json root = parse_json_unique_keys(text, source_name, kMaxTokenizerDepth);
  const Reader r(source_name);
  r.object(root, "top level");
  r.known_keys(root, "top level",
               {"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
                "post_processor", "decoder", "model"});
  for (const char* key : {"truncation", "padding"}) {
    if (const auto it = root.find(key); it != root.end() && !it->is_null())
      r.fail(key, "must be null (posbias measures whole lines; it neither cuts nor pads them)");
  }
  TokenizerJson t;
  const auto model = root.find("model");
  if (model == root.end()) r.fail("top level", "required field model is missing");
  read_model(r, *model, t);
  if (const auto it = root.find("normalizer"); it != root.end()) read_normalizer(r, *it, t);
  const auto pre = root.find("pre_tokenizer");
  if (pre == root.end() || pre->is_null())
    r.fail("pre_tokenizer", "is missing (a byte-level BPE tokenizer has ByteLevel)");
  read_pre_tokenizer(r, *pre, t);
  if (const auto it = root.find("added_tokens"); it != root.end()) read_added_tokens(r, *it, t);
  if (const auto it = root.find("post_processor"); it != root.end())
    read_post_processor(r, *it, "post_processor", t, false);
  for (const std::int64_t id : t.prefix_ids) t.vocab_size = std::max(t.vocab_size, id + 1);
  for (const std::int64_t id : t.suffix_ids) t.vocab_size = std::max(t.vocab_size, id + 1);
  return t;
}

TokenizerJson read_tokenizer_json(const std::filesystem::path& path) {
  return parse_tokenizer_json(
      read_bounded_file(path, kMaxTokenizerJsonBytes, "64 MiB tokenizer.json"), path.string());
}

}  // namespace posbias
