// libFuzzer target: model.safetensors.index.json parsing must reject or accept any bytes without
// crashing, and every accepted index must name at least one tensor, each in a shard whose name is
// a plain *.safetensors file name (no separator, no leading '.', no control byte).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "posbias/hf/safetensors_index.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posbias::SafetensorsIndex index;
  try {
    index = posbias::parse_safetensors_index(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const std::exception&) {
    return 0;
  }
  if (index.weight_map.empty()) __builtin_trap();
  constexpr std::string_view kSuffix = ".safetensors";
  for (const auto& [tensor, shard] : index.weight_map) {
    if (tensor.empty() || shard.size() <= kSuffix.size() || shard.front() == '.') __builtin_trap();
    if (shard.compare(shard.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
      __builtin_trap();
    for (const char ch : shard)
      if (ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20) __builtin_trap();
  }
  if (index.shards().empty() || index.shards().size() > index.weight_map.size()) __builtin_trap();
  return 0;
}
