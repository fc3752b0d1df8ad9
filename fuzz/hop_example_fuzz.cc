// libFuzzer target: one JSONL line of `tasks check` (example_from_json + the independent
// solver) and a training config (train.json / --config / checkpoint metadata) must accept or
// reject any bytes without crashing; accepted examples and configs must round-trip.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/core/json_read.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/tasks/task_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j;
  try {
    j = posbias::parse_json(text, "fuzz");
  } catch (const std::exception&) {
    return 0;
  }
  try {
    const posbias::Example ex = posbias::example_from_json(j);
    (void)posbias::check_example(ex);
    const posbias::Example again =
        posbias::example_from_json(nlohmann::json::parse(posbias::example_to_json(ex).dump()));
    if (again.tokens != ex.tokens || again.chain != ex.chain) __builtin_trap();
  } catch (const std::invalid_argument&) {
  }
  try {
    posbias::TrainConfig c = posbias::train_config_from_json(j);
    c.finalize();
    const posbias::TrainConfig again =
        posbias::train_config_from_json(posbias::train_config_to_json(c));
    if (posbias::train_config_to_json(again) != posbias::train_config_to_json(c)) __builtin_trap();
  } catch (const std::invalid_argument&) {
  } catch (const nlohmann::json::exception&) {
  }
  return 0;
}
