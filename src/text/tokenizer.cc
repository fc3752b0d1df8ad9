#include "posbias/text/tokenizer.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/install_paths.h"

#if defined(__SANITIZE_ADDRESS__)
#define POSBIAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSBIAS_ASAN 1
#endif
#endif

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxModelBytes = 64u << 20;

// posbias-spm.so (src/text/spm_module/): SentencePiece behind a C interface, loaded with its
// own symbol scope so that its bundled protobuf never meets libtorch's (see the module).
struct SpmModule {
  int (*train)(const char* const*, const std::size_t*, std::size_t, const char* const*,
               const char* const*, std::size_t, char**, std::size_t*, char**);
  int (*load)(const char*, std::size_t, void**, char**);
  void (*release)(void*);
  void (*free_buffer)(void*);
  int (*piece)(void*, int, int*, const char**);
  int (*size)(void*);
  int (*piece_to_id)(void*, const char*);
  int (*encode)(void*, const char*, std::size_t, int**, std::size_t*, char**);
  int (*decode)(void*, const int*, std::size_t, char**, std::size_t*, char**);

  static const SpmModule& get() {
    static const SpmModule module = open();
    return module;
  }

  // Throws std::runtime_error with the module's message (and frees it) when rc != 0.
  void check(int rc, char* error, const std::string& what) const {
    if (rc == 0) return;
    std::string message = error ? error : "failed";
    free_buffer(error);
    std::replace(message.begin(), message.end(), '\n', ' ');
    throw std::runtime_error(what + ": " + message);
  }

 private:
  static SpmModule open() {
    // Beside the executable (an installed or built `posbias`), else where the build put it.
    std::vector<std::string> candidates{(executable_dir() / "posbias-spm.so").string(),
                                        POSBIAS_SPM_MODULE};
    std::error_code ec;
    int flags = RTLD_NOW | RTLD_LOCAL;
#ifndef POSBIAS_ASAN
    flags |= RTLD_DEEPBIND;  // the sanitizers' runtime refuses it (and loads no libtorch)
#endif
    void* lib = nullptr;
    std::string error;
    for (const auto& path : candidates) {
      if (!std::filesystem::exists(path, ec)) continue;
      lib = dlopen(path.c_str(), flags);
      if (lib) break;
      const char* e = dlerror();
      error = e ? e : path;
    }
    if (!lib) {
      throw std::runtime_error("cannot load posbias-spm.so (SentencePiece): " +
                               (error.empty() ? "not found; rebuild with `make build`" : error));
    }
    SpmModule m{};
    auto sym = [&](const char* name) {
      void* f = dlsym(lib, name);
      if (!f) throw std::runtime_error(std::string("posbias-spm.so lacks ") + name);
      return f;
    };
    m.train = reinterpret_cast<decltype(m.train)>(sym("posbias_spm_train"));
    m.load = reinterpret_cast<decltype(m.load)>(sym("posbias_spm_load"));
    m.release = reinterpret_cast<decltype(m.release)>(sym("posbias_spm_release"));
    m.free_buffer = reinterpret_cast<decltype(m.free_buffer)>(sym("posbias_spm_free_buffer"));
    m.piece = reinterpret_cast<decltype(m.piece)>(sym("posbias_spm_piece"));
    m.size = reinterpret_cast<decltype(m.size)>(sym("posbias_spm_size"));
    m.piece_to_id = reinterpret_cast<decltype(m.piece_to_id)>(sym("posbias_spm_piece_to_id"));
    m.encode = reinterpret_cast<decltype(m.encode)>(sym("posbias_spm_encode"));
    m.decode = reinterpret_cast<decltype(m.decode)>(sym("posbias_spm_decode"));
    return m;
  }
};

}  // namespace

struct Tokenizer::Spm {
  explicit Spm(void* h) : handle(h) {}
  ~Spm() { SpmModule::get().release(handle); }
  Spm(const Spm&) = delete;
  Spm& operator=(const Spm&) = delete;
  void* handle;
};

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
  const SpmModule& m = SpmModule::get();
  void* handle = nullptr;
  char* error = nullptr;
  if (serialized.empty() || m.load(serialized.data(), serialized.size(), &handle, &error) != 0) {
    m.free_buffer(error);
    throw std::runtime_error(source + " is not a SentencePiece model");
  }
  auto spm = std::make_shared<const Spm>(handle);
  const int n = m.size(handle);
  const int newline = m.piece_to_id(handle, "<0x0A>");
  int kind = 0;
  const char* piece = nullptr;
  if (n < 257 || m.piece(handle, newline, &kind, &piece) != 0 || kind != 1) {
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
    m.piece(handle, id, &kind, &piece);
    if (kind == 1) {
      bytes = 1;
    } else if (kind == 0) {
      // "▁" (3 bytes) stands for one space.
      const std::string_view text(piece);
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
  std::vector<const char*> keys, values, texts;
  std::vector<std::size_t> sizes;
  for (const auto& [k, v] : options) keys.push_back(k.c_str()), values.push_back(v.c_str());
  for (const auto& line : lines) texts.push_back(line.data()), sizes.push_back(line.size());
  const SpmModule& m = SpmModule::get();
  char* buffer = nullptr;
  char* error = nullptr;
  std::size_t size = 0;
  m.check(m.train(texts.data(), sizes.data(), texts.size(), keys.data(), values.data(), keys.size(),
                  &buffer, &size, &error),
          error, "SentencePiece training failed");
  std::string model(buffer, size);
  m.free_buffer(buffer);
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
      const SpmModule& m = SpmModule::get();
      int* ids = nullptr;
      std::size_t n = 0;
      char* error = nullptr;
      m.check(m.encode(spm_->handle, line.data(), line.size(), &ids, &n, &error), error,
              "SentencePiece");
      out.insert(out.end(), ids, ids + n);
      m.free_buffer(ids);
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
  const SpmModule& m = SpmModule::get();
  char* buffer = nullptr;
  std::size_t size = 0;
  char* error = nullptr;
  m.check(m.decode(spm_->handle, v.data(), v.size(), &buffer, &size, &error), error,
          "SentencePiece");
  text.assign(buffer, size);
  m.free_buffer(buffer);
  return text;
}

}  // namespace posbias
