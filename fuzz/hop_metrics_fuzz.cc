// libFuzzer target: `posbias seeds --metrics` reads training metrics.jsonl files that may be
// any bytes; it must accept or reject them without crashing, and an accepted file has
// increasing steps, one accuracy row per step and every accuracy in 0..1.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "experiments/hops/hop_seed_files.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const posbias::HopMetricsFile m =
        posbias::parse_hop_metrics(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    if (m.steps.empty() || m.steps.size() != m.accuracy.size()) __builtin_trap();
    for (std::size_t i = 0; i < m.steps.size(); ++i) {
      if (m.steps[i] < 0 || (i > 0 && m.steps[i] <= m.steps[i - 1])) __builtin_trap();
      if (m.accuracy[i].empty()) __builtin_trap();
      for (const auto& [hop, v] : m.accuracy[i])
        if (hop < 1 || !(v >= 0 && v <= 1)) __builtin_trap();
    }
  } catch (const std::runtime_error&) {
  }
  return 0;
}
