// libFuzzer target: config.json parsing must reject or accept any bytes without crashing, and
// every accepted config must survive to_json -> parse unchanged.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/hf/hf_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posbias::HfConfig config;
  try {
    config =
        posbias::parse_hf_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const std::exception&) {
    return 0;
  }
  // Accepted: the round trip must not throw and must give the same struct.
  const posbias::HfConfig again = posbias::parse_hf_config(to_json(config).dump(), "round trip");
  if (!(again == config)) __builtin_trap();
  return 0;
}
