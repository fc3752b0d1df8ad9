// libFuzzer target: `posbias theory compare` reads birth results that may be any bytes; it
// must accept or reject them without crashing, and an accepted run is internally consistent.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "experiments/theory/compare_command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const posbias::CompareRun r = posbias::parse_birth_run(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz", "fuzz");
    if (r.measured.size() < 2 || r.predicted.size() != r.measured.size() || r.layers < 1)
      __builtin_trap();
    for (const auto& seed : r.seeds)
      if (seed.size() != r.measured.size()) __builtin_trap();
    if (!(r.dead_zone_measured > 0 && r.dead_zone_measured <= 1)) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
