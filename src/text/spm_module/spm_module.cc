// posbias-spm.so: SentencePiece behind a C interface, loaded by text/tokenizer.cc with
// dlopen(RTLD_LOCAL | RTLD_DEEPBIND). Debian's libsentencepiece carries its own copy of
// protobuf-lite and exports it; linked into a process that also loads libtorch (whose ONNX
// part loads the system libprotobuf), the two copies interpose each other's symbols and the
// process crashes at start-up. Behind this module, SentencePiece binds to its own copy and
// none of its symbols enter the global scope.
//
// Every function returns 0 on success; on failure it returns nonzero and sets *error to a
// malloc'ed message (free with posbias_spm_free_buffer). Buffers it returns are malloc'ed too.
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

char* copy(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.data(), s.size() + 1);
  return out;
}

int fail(char** error, const std::string& message) {
  if (error) *error = copy(message);
  return 1;
}

class LineIterator : public sentencepiece::SentenceIterator {
 public:
  LineIterator(const char* const* lines, const std::size_t* lengths, std::size_t n)
      : lines_(lines), lengths_(lengths), n_(n) {
    load();
  }
  bool done() const override { return i_ >= n_; }
  void Next() override {
    ++i_;
    load();
  }
  const std::string& value() const override { return current_; }
  sentencepiece::util::Status status() const override { return {}; }

 private:
  void load() {
    if (i_ < n_) current_.assign(lines_[i_], lengths_[i_]);
  }
  const char* const* lines_;
  const std::size_t* lengths_;
  std::size_t n_, i_ = 0;
  std::string current_;
};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int posbias_spm_train(
    const char* const* lines, const std::size_t* lengths, std::size_t n, const char* const* keys,
    const char* const* values, std::size_t n_options, char** model, std::size_t* model_size,
    char** error) {
  try {
    std::unordered_map<std::string, std::string> options;
    for (std::size_t i = 0; i < n_options; ++i) options[keys[i]] = values[i];
    LineIterator it(lines, lengths, n);
    std::string serialized;
    const auto status = sentencepiece::SentencePieceTrainer::Train(options, &it, &serialized);
    if (!status.ok()) return fail(error, status.ToString());
    *model = static_cast<char*>(std::malloc(serialized.size() ? serialized.size() : 1));
    if (!*model) return fail(error, "out of memory");
    std::memcpy(*model, serialized.data(), serialized.size());
    *model_size = serialized.size();
    return 0;
  } catch (const std::exception& e) {
    return fail(error, e.what());
  }
}

__attribute__((visibility("default"))) int posbias_spm_load(const char* data, std::size_t size,
                                                            void** handle, char** error) {
  try {
    auto* p = new sentencepiece::SentencePieceProcessor();
    const auto status = p->LoadFromSerializedProto(std::string(data, size));
    if (!status.ok()) {
      delete p;
      return fail(error, status.ToString());
    }
    *handle = p;
    return 0;
  } catch (const std::exception& e) {
    return fail(error, e.what());
  }
}

__attribute__((visibility("default"))) void posbias_spm_release(void* handle) {
  delete static_cast<sentencepiece::SentencePieceProcessor*>(handle);
}

__attribute__((visibility("default"))) void posbias_spm_free_buffer(void* buffer) {
  std::free(buffer);
}

// kind: 0 normal, 1 byte, 2 unknown, 3 control. *piece stays valid while the handle lives.
__attribute__((visibility("default"))) int posbias_spm_piece(void* handle, int id, int* kind,
                                                             const char** piece) {
  const auto* p = static_cast<sentencepiece::SentencePieceProcessor*>(handle);
  if (id < 0 || id >= p->GetPieceSize()) return 1;
  *kind = p->IsByte(id) ? 1 : p->IsUnknown(id) ? 2 : p->IsControl(id) ? 3 : 0;
  *piece = p->IdToPiece(id).c_str();
  return 0;
}

__attribute__((visibility("default"))) int posbias_spm_size(void* handle) {
  return static_cast<sentencepiece::SentencePieceProcessor*>(handle)->GetPieceSize();
}

__attribute__((visibility("default"))) int posbias_spm_piece_to_id(void* handle,
                                                                   const char* piece) {
  return static_cast<sentencepiece::SentencePieceProcessor*>(handle)->PieceToId(piece);
}

// The model's BOS id, -1 when it has none.
__attribute__((visibility("default"))) int posbias_spm_bos_id(void* handle) {
  return static_cast<sentencepiece::SentencePieceProcessor*>(handle)->bos_id();
}

__attribute__((visibility("default"))) int posbias_spm_encode(void* handle, const char* text,
                                                              std::size_t size, int** ids,
                                                              std::size_t* n, char** error) {
  try {
    std::vector<int> out;
    const auto status = static_cast<sentencepiece::SentencePieceProcessor*>(handle)->Encode(
        std::string(text, size), &out);
    if (!status.ok()) return fail(error, status.ToString());
    *ids = static_cast<int*>(std::malloc(sizeof(int) * (out.size() ? out.size() : 1)));
    if (!*ids) return fail(error, "out of memory");
    std::memcpy(*ids, out.data(), sizeof(int) * out.size());
    *n = out.size();
    return 0;
  } catch (const std::exception& e) {
    return fail(error, e.what());
  }
}

__attribute__((visibility("default"))) int posbias_spm_decode(void* handle, const int* ids,
                                                              std::size_t n, char** text,
                                                              std::size_t* size, char** error) {
  try {
    std::string out;
    const auto status = static_cast<sentencepiece::SentencePieceProcessor*>(handle)->Decode(
        std::vector<int>(ids, ids + n), &out);
    if (!status.ok()) return fail(error, status.ToString());
    *text = static_cast<char*>(std::malloc(out.size() ? out.size() : 1));
    if (!*text) return fail(error, "out of memory");
    std::memcpy(*text, out.data(), out.size());
    *size = out.size();
    return 0;
  } catch (const std::exception& e) {
    return fail(error, e.what());
  }
}

}  // extern "C"
