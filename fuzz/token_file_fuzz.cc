// libFuzzer target: token-id files (`birth --tokens`, `heads --tokens`) must accept or
// reject any bytes without crashing; accepted rows hold only ids inside the vocabulary.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "posbias/hf/token_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto rows = posbias::parse_token_lines(in, "fuzz", 1000);
    for (const auto& row : rows) {
      if (row.empty() || row.size() > static_cast<std::size_t>(posbias::kMaxTokenFileLength))
        __builtin_trap();
      for (std::int64_t id : row) {
        if (id < 0 || id >= 1000) __builtin_trap();
      }
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
