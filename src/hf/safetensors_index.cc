#include "posbias/hf/safetensors_index.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "file_error.h"
#include "posbias/core/json_read.h"
#include "posbias/core/printable.h"
#include "posbias/core/strict_json.h"

namespace posbias {
namespace {

using nlohmann::json;

constexpr int kMaxIndexDepth = 16;            // {"metadata": {...}, "weight_map": {...}}
constexpr std::size_t kMaxTensorName = 1024;  // HF's longest names are under 200 bytes
constexpr std::size_t kMaxShardName = 255;    // one path component

using hf_file::fail;

// Why a shard name is not a plain file name in the index's folder; empty when it is.
std::string shard_name_problem(std::string_view name) {
  if (name.empty()) return "is empty";
  if (name.size() > kMaxShardName)
    return "is longer than " + std::to_string(kMaxShardName) + " bytes";
  for (const char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '/' || ch == '\\') return "holds a path separator";
    if (u < 0x20 || u == 0x7f) return "holds a control byte";
  }
  if (name.front() == '.') return "starts with '.'";
  constexpr std::string_view kSuffix = ".safetensors";
  if (name.size() <= kSuffix.size() || name.substr(name.size() - kSuffix.size()) != kSuffix)
    return "does not end in .safetensors";
  return {};
}

void read_metadata(const json& metadata, const std::string& source, SafetensorsIndex& index) {
  if (!metadata.is_object())
    fail(source, "metadata must be an object, got " + brief_json(metadata));
  const auto it = metadata.find("total_size");
  if (it == metadata.end() || it->is_null()) return;
  if (!it->is_number_unsigned())
    fail(source, "metadata.total_size must be a non-negative integer, got " + brief_json(*it));
  index.total_size = it->get<std::uint64_t>();
}

}  // namespace

std::vector<std::string> SafetensorsIndex::shards() const {
  std::set<std::string> names;
  for (const auto& [tensor, shard] : weight_map) names.insert(shard);
  return {names.begin(), names.end()};
}

SafetensorsIndex parse_safetensors_index(std::string_view text, const std::string& source_name) {
  const std::string& src = source_name;
  if (text.size() > kMaxSafetensorsIndexBytes)
    fail(src, std::to_string(text.size()) + " bytes is more than the " +
                  std::to_string(kMaxSafetensorsIndexBytes) + "-byte limit for an index");
  const json root = parse_json_unique_keys(text, src, kMaxIndexDepth);
  if (!root.is_object())
    fail(src, std::string("top level is ") + root.type_name() + ", not a JSON object");
  SafetensorsIndex index;
  for (const auto& [key, value] : root.items()) {
    if (key == "metadata") {
      read_metadata(value, src, index);
    } else if (key != "weight_map") {
      fail(src, "unknown field " + quoted_name(key) + " (an index has metadata and weight_map)");
    }
  }
  const auto map = root.find("weight_map");
  if (map == root.end()) fail(src, "required field weight_map is missing");
  if (!map->is_object()) fail(src, "weight_map must be an object, got " + brief_json(*map));
  if (map->empty()) fail(src, "weight_map is empty: the index names no tensor");
  std::set<std::string> shards;
  for (const auto& [tensor, shard] : map->items()) {
    if (tensor.empty() || tensor.size() > kMaxTensorName)
      fail(src, "weight_map has a tensor name of " + std::to_string(tensor.size()) +
                    " bytes (allowed 1.." + std::to_string(kMaxTensorName) + ")");
    if (tensor == "__metadata__") fail(src, "weight_map names the tensor '__metadata__'");
    if (!shard.is_string())
      fail(src, "weight_map[" + quoted_name(tensor) + "] must be a shard file name, got " +
                    brief_json(shard));
    const std::string name = shard.get<std::string>();
    if (const std::string problem = shard_name_problem(name); !problem.empty())
      fail(src, "shard " + quoted_name(name) + " of tensor " + quoted_name(tensor) + " " + problem +
                    "; a shard must be a plain *.safetensors file name in the index's folder");
    shards.insert(name);
    if (shards.size() > kMaxSafetensorsShards)
      fail(src, "more than " + std::to_string(kMaxSafetensorsShards) + " shards");
    index.weight_map.emplace(tensor, name);
  }
  return index;
}

SafetensorsIndex read_safetensors_index(const std::filesystem::path& path) {
  const std::string src = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    fail(src, "not a readable regular file" + (ec ? " (" + ec.message() + ")" : std::string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(src, std::string("cannot open: ") + std::strerror(errno));
  std::string text(kMaxSafetensorsIndexBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) fail(src, std::string("cannot read: ") + std::strerror(errno));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxSafetensorsIndexBytes)
    fail(src, "larger than the " + std::to_string(kMaxSafetensorsIndexBytes) +
                  "-byte limit for an index");
  return parse_safetensors_index(text, src);
}

bool is_safetensors_index(const std::filesystem::path& path) { return path.extension() == ".json"; }

SafetensorsCheckpoint SafetensorsCheckpoint::single(SafetensorsFile file) {
  SafetensorsCheckpoint c;
  c.source_name_ = file.source_name();
  c.files_.push_back(std::move(file));
  return c;
}

SafetensorsCheckpoint SafetensorsCheckpoint::open(const std::filesystem::path& path) {
  if (!is_safetensors_index(path)) return single(SafetensorsFile::open(path));
  const SafetensorsIndex index = read_safetensors_index(path);
  SafetensorsCheckpoint c;
  c.source_name_ = path.string();
  const std::filesystem::path dir = path.parent_path();
  std::map<std::string, std::size_t> opened;  // shard name → files_ index
  for (const std::string& shard : index.shards()) {
    const std::filesystem::path file = dir / shard;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
      std::size_t listed = 0;
      std::string first;
      for (const auto& [tensor, name] : index.weight_map)
        if (name == shard && listed++ == 0) first = tensor;
      fail(c.source_name_, "shard " + quoted_name(shard) + " does not exist in " +
                               (dir.empty() ? std::string(".") : dir.string()) +
                               " (the index lists " + std::to_string(listed) +
                               (listed == 1 ? " tensor" : " tensors") + " in it, " +
                               quoted_name(first) + " first)");
    }
    opened.emplace(shard, c.files_.size());
    c.files_.push_back(SafetensorsFile::open(file));
  }
  for (const auto& [tensor, shard] : index.weight_map) {
    const std::size_t at = opened.at(shard);
    if (c.files_[at].find(tensor) == nullptr)
      fail(c.source_name_, "tensor " + quoted_name(tensor) + " is listed in shard " +
                               quoted_name(shard) + ", which does not hold it");
    c.shard_of_.emplace(tensor, at);
  }
  return c;
}

std::optional<SafetensorsCheckpoint::Found> SafetensorsCheckpoint::find(
    const std::string& name) const {
  if (shard_of_.empty()) {  // one file
    const TensorView* t = files_.front().find(name);
    if (t == nullptr) return std::nullopt;
    return Found{&files_.front(), t};
  }
  const auto it = shard_of_.find(name);
  if (it == shard_of_.end()) return std::nullopt;
  const SafetensorsFile& file = files_[it->second];
  return Found{&file, file.find(name)};
}

}  // namespace posbias
