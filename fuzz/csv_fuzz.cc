// libFuzzer target: the profile CSV parser must reject or accept any bytes without crashing,
// hanging or allocating wildly.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "posbias/core/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const posbias::CsvTable t =
        posbias::parse_numeric_csv(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    for (const auto& row : t.rows) {
      if (row.size() != t.header.size()) __builtin_trap();
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
