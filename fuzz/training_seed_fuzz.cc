// libFuzzer target: `posbias seeds` reads birth --run results that may be any bytes; it must
// accept or reject them without crashing, and an accepted result is internally consistent.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "experiments/seeds/seeds_command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const posbias::TrainingSeed r = posbias::parse_training_seed(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    // The query is a position (0-based): after at least one key, before the length.
    if (r.checkpoints.empty() || r.query < 1 || r.query >= r.length) __builtin_trap();
    for (std::size_t i = 0; i < r.checkpoints.size(); ++i) {
      const auto& c = r.checkpoints[i];
      if (i > 0 && c.step <= r.checkpoints[i - 1].step) __builtin_trap();
      if (c.profile.size() != static_cast<std::size_t>(r.query + 1)) __builtin_trap();
      if (!c.gradient.empty() && c.gradient.size() != static_cast<std::size_t>(r.length))
        __builtin_trap();
      for (double v : c.profile)
        if (!(v > 0) || !std::isfinite(v)) __builtin_trap();
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
