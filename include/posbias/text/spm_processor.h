// A SentencePiece model (Debian's libsentencepiece), trained, loaded and run through
// posbias-spm.so: SentencePiece behind a C interface, loaded with a symbol scope of its own so
// that its bundled protobuf never meets libtorch's (src/text/spm_module/). Used by the text
// runs' tokenizer (tokenizer.h) and by a checkpoint's tokenizer.model (hf/checkpoint_tokenizer.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace posbias {

class SpmProcessor {
 public:
  enum class PieceKind { kNormal, kByte, kUnknown, kControl };

  // Trains on `lines` with SentencePiece's options (key, value); returns the serialized model.
  // Throws std::runtime_error with SentencePiece's message when it cannot.
  static std::string train(const std::vector<std::string>& lines,
                           const std::vector<std::pair<std::string, std::string>>& options);
  // A serialized model (throws std::runtime_error "SOURCE is not a SentencePiece model").
  static SpmProcessor load(const std::string& serialized, const std::string& source);

  int size() const;
  PieceKind kind(int id) const;          // id in 0..size()-1
  std::string_view piece(int id) const;  // valid while the processor lives
  int piece_to_id(const std::string& piece) const;
  int bos_id() const;  // -1 when the model has none
  std::vector<int> encode(std::string_view text) const;
  std::string decode(const std::vector<int>& ids) const;

 private:
  struct Handle;
  std::shared_ptr<const Handle> handle_;
};

}  // namespace posbias
