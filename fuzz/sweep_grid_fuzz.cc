// libFuzzer target: a sweep's GRID.json (sweep_grid_from_json, then expand_sweep) must accept or
// reject any bytes with std::invalid_argument, never crash or run away; an accepted grid expands
// the same way twice, into the product of its axes, every run's values among its axes' values.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/cluster/sweep.h"
#include "posbias/core/json_read.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j;
  try {
    j = posbias::parse_json(text, "fuzz");
  } catch (const std::exception&) {
    return 0;
  }
  const std::vector<std::string> known{"--out", "--seed", "--lr", "--task", "--steps", "--resume"};
  try {
    const posbias::SweepGrid grid = posbias::sweep_grid_from_json(j);
    const posbias::SweepPlan a = posbias::expand_sweep(grid, "/nonexistent/sweep", known);
    const posbias::SweepPlan b = posbias::expand_sweep(grid, "/nonexistent/sweep", known);
    if (a.runs.size() != b.runs.size() || a.runs.empty()) __builtin_trap();
    for (std::size_t i = 0; i < a.runs.size(); ++i) {
      if (a.runs[i].command != b.runs[i].command || a.runs[i].values.size() != a.axes.size())
        __builtin_trap();
    }
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
