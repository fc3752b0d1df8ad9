// libFuzzer target: the safetensors header parser must reject or accept any bytes without
// crashing, hanging or allocating wildly, and every accepted view must lie inside the input;
// a file carrying a checksum is verified (it may fail, never crash or read out of bounds).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <vector>

#include "posbias/hf/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  try {
    const posbias::SafetensorsFile file =
        posbias::SafetensorsFile::parse(std::span<const std::byte>(bytes, size), "fuzz");
    for (const auto& [name, view] : file.tensors()) {
      if (view.data < bytes || view.bytes > size || view.data > bytes + (size - view.bytes))
        __builtin_trap();
      const auto numel = static_cast<std::size_t>(view.numel());
      if (view.bytes != numel * posbias::dtype_size(view.dtype)) __builtin_trap();
      if (file.find(name) != &view) __builtin_trap();
      const auto d = view.dtype;
      if (d == posbias::DType::F32 || d == posbias::DType::F16 || d == posbias::DType::BF16 ||
          d == posbias::DType::F64) {
        if (posbias::to_float32(view).size() != numel) __builtin_trap();
      }
    }
    if (file.has_checksum()) file.verify_checksum();
  } catch (const std::exception&) {
  }
  return 0;
}
