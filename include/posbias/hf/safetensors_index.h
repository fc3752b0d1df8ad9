// Sharded Hugging Face checkpoints: model.safetensors.index.json, {"metadata": {...},
// "weight_map": {tensor name: shard file name}}, beside its shard files. The index is untrusted:
// it is read strictly (duplicate keys, unknown top-level fields, a non-string shard and an empty
// map are refused), and a shard must be a plain file name ending in ".safetensors" in the index's
// own folder (no '/', '\', leading '.' or control bytes), so an index cannot reach another
// folder. Errors are one line naming the index and the field, shard or tensor. No libtorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/hf/safetensors.h"

namespace posbias {

constexpr std::size_t kMaxSafetensorsIndexBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxSafetensorsShards = 10000;

struct SafetensorsIndex {
  std::map<std::string, std::string> weight_map;  // tensor name → shard file name
  std::optional<std::uint64_t> total_size;        // metadata.total_size, when given
  std::vector<std::string> shards() const;        // the distinct shard names, sorted
};

// Parses index text (source_name prefixes every message). Throws std::runtime_error for text
// that is too large, not JSON, or content it refuses.
SafetensorsIndex parse_safetensors_index(std::string_view text, const std::string& source_name);
// Reads and parses a file of at most kMaxSafetensorsIndexBytes.
SafetensorsIndex read_safetensors_index(const std::filesystem::path& path);
// A path --weights reads as an index: its name ends in ".json".
bool is_safetensors_index(const std::filesystem::path& path);

// A checkpoint's tensors across one safetensors file or the shards an index names, each shard
// opened (and mapped) once. Movable, not copyable.
class SafetensorsCheckpoint {
 public:
  // A .safetensors file, or an index (is_safetensors_index): every shard is opened and must
  // hold every tensor the index lists for it. Throws std::runtime_error naming a missing shard
  // or tensor, or what SafetensorsFile::open refuses in a shard.
  static SafetensorsCheckpoint open(const std::filesystem::path& path);
  // One file already open.
  static SafetensorsCheckpoint single(SafetensorsFile file);

  struct Found {
    const SafetensorsFile* file;  // the shard holding it
    const TensorView* tensor;
  };
  // The tensor and its shard; nullopt when absent (from the index, for a sharded checkpoint).
  std::optional<Found> find(const std::string& name) const;
  const std::vector<SafetensorsFile>& files() const { return files_; }
  // The file given: the safetensors file or the index.
  const std::string& source_name() const { return source_name_; }

 private:
  SafetensorsCheckpoint() = default;
  std::string source_name_;
  std::vector<SafetensorsFile> files_;
  std::map<std::string, std::size_t> shard_of_;  // tensor name → files_ index (sharded only)
};

}  // namespace posbias
