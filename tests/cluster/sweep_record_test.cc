// The sweep's files as records (sweep_record.h): files written by the build before the records
// (tests/cluster/sweep_files: a manifest, started.json, done.json and a status) read back and
// write the same bytes; the readers refuse unknown, missing and mistyped fields by name.
#include "posbias/cluster/sweep_record.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

std::string file_text(const std::string& name) {
  std::ifstream in(std::filesystem::path(POSBIAS_SOURCE_DIR) / "tests/cluster/sweep_files" / name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The file read by `read` and written by to_json again, byte for byte.
template <class Read>
std::string round_trip(const std::string& text, Read read) {
  return to_json(read(nlohmann::json::parse(text))).dump(2) + "\n";
}

void expect_refused(const std::function<void()>& read, const std::string& words) {
  try {
    read();
    FAIL() << "accepted; expected an error with: " << words;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(SweepRecord, FilesOfTheEarlierWriterReadAndWriteTheSameBytes) {
  for (const char* name : {"manifest.json", "started.json", "done.json", "status.json"}) {
    const std::string text = file_text(name);
    ASSERT_FALSE(text.empty()) << name;
    const std::string n = name;
    const std::string again =
        n == "manifest.json"  ? round_trip(text, posbias::sweep_manifest_from_json)
        : n == "started.json" ? round_trip(text, posbias::sweep_started_from_json)
        : n == "done.json"    ? round_trip(text, posbias::sweep_run_end_from_json)
                              : round_trip(text, posbias::sweep_status_from_json);
    EXPECT_EQ(again, text) << name;
  }
  const posbias::SweepManifest m =
      posbias::sweep_manifest_from_json(nlohmann::json::parse(file_text("manifest.json")));
  ASSERT_EQ(m.plan.runs.size(), 6u);
  EXPECT_EQ(m.plan.runs[4].values.at("--seed"), "1");
  EXPECT_EQ(m.plan.runs[4].dir.filename(), "0004");
  const posbias::SweepStarted s =
      posbias::sweep_started_from_json(nlohmann::json::parse(file_text("started.json")));
  ASSERT_EQ(s.attempts.size(), 2u);
  EXPECT_TRUE(s.attempts[1].resumed);
}

TEST(SweepRecord, BadFieldsAreRefusedByName) {
  auto manifest = nlohmann::json::parse(file_text("manifest.json"));
  manifest["runs"][3]["command"] = "train";
  expect_refused([&] { posbias::sweep_manifest_from_json(manifest); },
                 "manifest field 'runs.3.command' must be a list");
  manifest = nlohmann::json::parse(file_text("manifest.json"));
  manifest["runs"][0].erase("result");
  expect_refused([&] { posbias::sweep_manifest_from_json(manifest); },
                 "missing manifest field 'runs.0.result'");
  auto done = nlohmann::json::parse(file_text("done.json"));
  done["cod"] = 0;
  expect_refused([&] { posbias::sweep_run_end_from_json(done); }, "unknown run end field 'cod'");
  auto started = nlohmann::json::parse(file_text("started.json"));
  started["attempts"][1]["resumed"] = "yes";
  expect_refused([&] { posbias::sweep_started_from_json(started); },
                 "started.json field 'attempts.1.resumed'");
  auto status = nlohmann::json::parse(file_text("status.json"));
  status["states"][0]["code"] = 1.5;
  expect_refused([&] { posbias::sweep_status_from_json(status); },
                 "sweep status field 'states.0.code'");
  status = nlohmann::json::parse(file_text("status.json"));
  status["states"][1]["state"] = "finished";
  expect_refused([&] { posbias::sweep_status_from_json(status); },
                 "unknown run state 'finished' (use pending, started, done or failed)");
}

}  // namespace
