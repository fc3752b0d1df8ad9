// A training run's folder for tests that read runs without training one: its train.json written
// from a RunHeader (runfiles/run_header.h) the way `train` writes it, every field present.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/runfiles/run_header.h"

namespace posbias_test {

// DIR/train.json holds `config` (and a default machine record); returns DIR.
inline std::string write_run_folder(const std::filesystem::path& dir,
                                    const posbias::TrainConfig& config) {
  posbias::RunHeader header;
  header.config = config;
  header.version = "test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "train.json") << posbias::to_json(header).dump(2) << "\n";
  return dir.string();
}

}  // namespace posbias_test
