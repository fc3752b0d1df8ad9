#include "posbias/text/spm_processor.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

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
  int (*bos_id)(void*);

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
    m.bos_id = reinterpret_cast<decltype(m.bos_id)>(sym("posbias_spm_bos_id"));
    return m;
  }
};

}  // namespace

struct SpmProcessor::Handle {
  explicit Handle(void* h) : handle(h) {}
  ~Handle() { SpmModule::get().release(handle); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  void* handle;
};

std::string SpmProcessor::train(const std::vector<std::string>& lines,
                                const std::vector<std::pair<std::string, std::string>>& options) {
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
  return model;
}

SpmProcessor SpmProcessor::load(const std::string& serialized, const std::string& source) {
  const SpmModule& m = SpmModule::get();
  void* handle = nullptr;
  char* error = nullptr;
  if (serialized.empty() || m.load(serialized.data(), serialized.size(), &handle, &error) != 0) {
    m.free_buffer(error);
    throw std::runtime_error(source + " is not a SentencePiece model");
  }
  SpmProcessor p;
  p.handle_ = std::make_shared<const Handle>(handle);
  return p;
}

int SpmProcessor::size() const { return SpmModule::get().size(handle_->handle); }

SpmProcessor::PieceKind SpmProcessor::kind(int id) const {
  int kind = 0;
  const char* text = nullptr;
  if (SpmModule::get().piece(handle_->handle, id, &kind, &text) != 0)
    throw std::out_of_range("piece id outside the SentencePiece model");
  return static_cast<PieceKind>(kind);
}

std::string_view SpmProcessor::piece(int id) const {
  int kind = 0;
  const char* text = nullptr;
  if (SpmModule::get().piece(handle_->handle, id, &kind, &text) != 0)
    throw std::out_of_range("piece id outside the SentencePiece model");
  return text;
}

int SpmProcessor::piece_to_id(const std::string& piece) const {
  return SpmModule::get().piece_to_id(handle_->handle, piece.c_str());
}

int SpmProcessor::bos_id() const { return SpmModule::get().bos_id(handle_->handle); }

std::vector<int> SpmProcessor::encode(std::string_view text) const {
  const SpmModule& m = SpmModule::get();
  int* ids = nullptr;
  std::size_t n = 0;
  char* error = nullptr;
  m.check(m.encode(handle_->handle, text.data(), text.size(), &ids, &n, &error), error,
          "SentencePiece");
  std::vector<int> out(ids, ids + n);
  m.free_buffer(ids);
  return out;
}

std::string SpmProcessor::decode(const std::vector<int>& ids) const {
  const SpmModule& m = SpmModule::get();
  char* buffer = nullptr;
  std::size_t size = 0;
  char* error = nullptr;
  m.check(m.decode(handle_->handle, ids.data(), ids.size(), &buffer, &size, &error), error,
          "SentencePiece");
  std::string text(buffer, size);
  m.free_buffer(buffer);
  return text;
}

}  // namespace posbias
