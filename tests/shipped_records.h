// What a record's round-trip test needs: the JSON files shipped in docs/data that hold a marker,
// the text a record writes (to compare with their bytes), and the message its strict reader
// refuses a bad file with.
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli_run.h"

namespace posbias_test {

inline const std::filesystem::path kShippedData =
    std::filesystem::path(POSBIAS_SOURCE_DIR) / "docs/data";

struct ShippedJson {
  std::filesystem::path path;
  std::string bytes;
};

// Every .json file below docs/data whose text holds `marker`, in path order.
inline std::vector<ShippedJson> shipped_json(std::string_view marker) {
  std::vector<ShippedJson> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kShippedData)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::string bytes = slurp(entry.path());
    if (bytes.find(marker) != std::string::npos) files.push_back({entry.path(), std::move(bytes)});
  }
  std::sort(files.begin(), files.end(),
            [](const ShippedJson& a, const ShippedJson& b) { return a.path < b.path; });
  return files;
}

struct ShippedTrainConfig {
  std::filesystem::path path;
  nlohmann::json config;  // the train.json's "config"
};

// The run configs of every train.json (and NAME-train.json copy) below docs/data, in path order.
inline std::vector<ShippedTrainConfig> shipped_train_configs() {
  std::vector<ShippedTrainConfig> out;
  for (const auto& [path, bytes] : shipped_json("\"config\"")) {
    const std::string name = path.filename().string();
    if (name != "train.json" && !name.ends_with("-train.json")) continue;
    nlohmann::json header = nlohmann::json::parse(bytes);
    if (header.contains("config")) out.push_back({path, std::move(header.at("config"))});
  }
  return out;
}

// The text posbias writes for a result: two-space indent and a final newline.
inline std::string json_text(const nlohmann::json& j) { return j.dump(2) + "\n"; }

// What `read` throws as std::invalid_argument, or "" when it accepts.
template <class Read>
std::string refusal_of(Read&& read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace posbias_test
