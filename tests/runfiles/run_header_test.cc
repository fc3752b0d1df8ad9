// RunHeader's field table (runfiles/run_header.h): every train.json shipped in docs/data reads
// back and writes out again byte for byte, and a damaged one is refused naming its field.
#include "posbias/runfiles/run_header.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

bool is_train_json(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name == "train.json" || name.ends_with("-train.json");
}

// The header around the config byte for byte; the config as TrainConfig writes it (a run of an
// earlier build gains the fields added since, at their defaults: train_config_test).
TEST(TrainJsonRunHeader, ShippedFilesReadBackByteForByte) {
  int files = 0, whole = 0, text_runs = 0, with_threads = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"machine\"")) {
    if (!is_train_json(path)) continue;
    ++files;
    nlohmann::json expected = nlohmann::json::parse(bytes);
    const RunHeader header = run_header_from_json(expected);
    const std::string written = posbias_test::json_text(to_json(header));
    whole += written == bytes;
    expected["config"] = train_config_to_json(header.config);
    EXPECT_EQ(written, posbias_test::json_text(expected)) << path;
    text_runs += header.corpus_fingerprint.has_value();
    with_threads += header.threads.has_value();
  }
  EXPECT_GE(files, 40);  // 46 when written, 26 of them byte for byte whole
  EXPECT_GE(whole, 20);
  EXPECT_GE(text_runs, 1);
  EXPECT_GE(with_threads, 1);
}

nlohmann::json shipped_header() {
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"corpus_fingerprint\""))
    if (is_train_json(path)) return nlohmann::json::parse(bytes);
  ADD_FAILURE() << "no text run's train.json in docs/data";
  return {};
}

TEST(TrainJsonRunHeader, BadFieldsAreRefusedByName) {
  nlohmann::json j = shipped_header();
  j["thread"] = 2;
  EXPECT_EQ(posbias_test::refusal_of([&] { run_header_from_json(j); }),
            "unknown train.json field 'thread'");
  j = shipped_header();
  j["threads"] = "2";
  EXPECT_EQ(posbias_test::refusal_of([&] { run_header_from_json(j); }),
            "train.json field 'threads' must be a number (an integer)");
  j = shipped_header();
  j.erase("version");
  EXPECT_EQ(posbias_test::refusal_of([&] { run_header_from_json(j); }),
            "missing train.json field 'version'");
  j = shipped_header();
  j["config"]["lenght"] = 17;
  EXPECT_NE(posbias_test::refusal_of([&] { run_header_from_json(j); }).find("'lenght'"),
            std::string::npos);
}

// A run folder whose train.json has an unknown field is a damaged run: std::runtime_error
// naming the file and the field.
TEST(TrainJsonRunHeader, ADamagedRunFileIsRefusedNamingItsField) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("run_header_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  nlohmann::json j = shipped_header();
  j["corpus_fingerprnt"] = "00";
  std::ofstream(dir / "train.json") << j.dump(2) << "\n";
  try {
    read_run_header(dir);
    ADD_FAILURE() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "train.json").string() +
                                         " is corrupt: unknown train.json field "
                                         "'corpus_fingerprnt'");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace posbias
