#include "posbias/hf/checkpoint_tokenizer.h"

#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/core/utf8.h"
#include "posbias/hf/byte_level_bpe.h"
#include "posbias/hf/tokenizer_json.h"
#include "posbias/text/spm_processor.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxSpmModelBytes = std::uintmax_t{64} << 20;

// The folder's tokenizer: tokenizer.model first (a folder may hold both), then tokenizer.json.
std::filesystem::path in_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const char* name : {"tokenizer.model", "tokenizer.json"}) {
    if (std::filesystem::is_regular_file(dir / name, ec)) return dir / name;
  }
  return {};
}

}  // namespace

CheckpointTokenizer CheckpointTokenizer::find(const std::filesystem::path& config,
                                              const std::filesystem::path& given) {
  std::error_code ec;
  if (!given.empty()) {
    if (!std::filesystem::is_directory(given, ec)) return load(given);
    const std::filesystem::path file = in_folder(given);
    if (file.empty())
      throw std::runtime_error("no tokenizer.json or tokenizer.model in " + given.string());
    return load(file);
  }
  const std::filesystem::path dir = config.parent_path().empty() ? "." : config.parent_path();
  const std::filesystem::path file = in_folder(dir);
  if (file.empty())
    throw std::runtime_error("no tokenizer.json or tokenizer.model next to " + config.string() +
                             "; give --tokenizer");
  return load(file);
}

CheckpointTokenizer CheckpointTokenizer::load(const std::filesystem::path& file) {
  CheckpointTokenizer t;
  t.source_ = file.string();
  if (file.extension() == ".json") {
    t.bpe_ = std::make_shared<const ByteLevelBpe>(read_tokenizer_json(file), t.source_);
  } else {
    t.spm_ = std::make_shared<const SpmProcessor>(
        SpmProcessor::load(read_bounded_file(file, kMaxSpmModelBytes, "64 MiB tokenizer.model"),
                           "'" + t.source_ + "'"));
  }
  return t;
}

std::vector<std::int64_t> CheckpointTokenizer::encode(std::string_view text) const {
  if (bpe_) return bpe_->encode(text);
  require_utf8(text);
  std::vector<std::int64_t> out;
  if (spm_->bos_id() >= 0) out.push_back(spm_->bos_id());
  for (const int id : spm_->encode(text)) out.push_back(id);
  return out;
}

std::int64_t CheckpointTokenizer::vocab_size() const {
  return bpe_ ? bpe_->vocab_size() : spm_->size();
}

}  // namespace posbias
