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

// Every GRID.json shipped in docs/data reads through its record and writes the same JSON (the
// files are laid out by hand; their values, key by key, are what the record writes), and the
// sweep collect output shipped there reads back and writes the same bytes.
TEST(SweepRecord, ShippedGridsAndCollectOutputReadBack) {
  const std::filesystem::path data = std::filesystem::path(POSBIAS_SOURCE_DIR) / "docs/data";
  int grids = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name.find("grid") == std::string::npos) continue;
    std::ifstream in(entry.path());
    const nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(to_json(posbias::sweep_grid_from_json(j)).dump(2), j.dump(2)) << entry.path();
    ++grids;
  }
  EXPECT_GE(grids, 17);  // 18 when written
  std::ifstream in(data / "scale-out/sweep.json");
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(round_trip(text.str(), posbias::sweep_collection_from_json), text.str());
}

TEST(SweepRecord, BadGridAndCollectFieldsAreRefusedByName) {
  nlohmann::json grid = nlohmann::json::parse(file_text("manifest.json"))["grid"];
  ASSERT_EQ(to_json(posbias::sweep_grid_from_json(grid)), grid);
  grid["seed"] = {1};
  expect_refused([&] { posbias::sweep_grid_from_json(grid); }, "unknown GRID.json field 'seed'");
  grid.erase("seed");
  grid["slurm"]["cpus"] = 2;
  expect_refused([&] { posbias::sweep_grid_from_json(grid); },
                 "unknown GRID.json field 'slurm.cpus'");
  grid["slurm"].erase("cpus");
  grid["resume"]["when"] = true;
  expect_refused([&] { posbias::sweep_grid_from_json(grid); },
                 "GRID.json field 'resume.when' must be a string or a number");
  grid["resume"].erase("when");
  expect_refused([&] { posbias::sweep_grid_from_json(grid); },
                 "missing GRID.json field 'resume.when'");
  grid.erase("resume");
  grid.erase("command");
  expect_refused([&] { posbias::sweep_grid_from_json(grid); }, "missing GRID.json field 'command'");
  auto manifest = nlohmann::json::parse(file_text("manifest.json"));
  manifest["grid"]["grid"]["--task"][0] = nullptr;
  expect_refused([&] { posbias::sweep_manifest_from_json(manifest); },
                 "manifest field 'grid.grid.--task.0' must be a string or a number");

  std::ifstream in(std::filesystem::path(POSBIAS_SOURCE_DIR) / "docs/data/scale-out/sweep.json");
  const nlohmann::json collected = nlohmann::json::parse(in);
  nlohmann::json c = collected;
  c["summary"][1]["metrics.final.2"] = c["summary"][1]["train_seconds"];
  expect_refused([&] { posbias::sweep_collection_from_json(c); },
                 "unknown sweep collect field 'summary.1.metrics.final.2' (not one of 'metrics')");
  c = collected;
  c["summary"][0]["train_seconds"]["ci"] = 1;
  expect_refused([&] { posbias::sweep_collection_from_json(c); },
                 "sweep collect field 'summary.0.train_seconds.ci' must be a list");
  c = collected;
  c["runs"][2]["result"]["train_seconds"] = "12";
  expect_refused([&] { posbias::sweep_collection_from_json(c); },
                 "sweep collect field 'runs.2.result.train_seconds' must be a number");
  c = collected;
  c.erase("not_done");
  expect_refused([&] { posbias::sweep_collection_from_json(c); },
                 "missing sweep collect field 'not_done'");
}

}  // namespace

// The collection's figure: a grid of positive values spanning a decade is drawn on a log axis
// (as a rate grid is chosen), a narrower or two-point one on a linear axis; one series with no
// other axis has no legend (its name is the y label).
TEST(SweepRecord, CollectionFigureTakesALogAxisForAGridSpanningADecade) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "posbias_sweep_record_test_figure";
  std::filesystem::create_directories(dir);
  auto script = [&](const std::vector<std::string>& lrs) {
    posbias::SweepCollection c;
    c.axes = {"--lr", "--seed"};
    c.metrics = {"acc"};
    for (const std::string& lr : lrs) {
      posbias::SweepPointSummary p;
      p.values["--lr"] = lr;
      p.metrics["acc"] = {0.5, {0.4, 0.6}, 2};
      c.summary.push_back(p);
      c.runs.push_back({static_cast<int>(c.runs.size()), {{"--lr", lr}, {"--seed", "0"}}, {}});
    }
    posbias::render_sweep_figure(c, dir / "f");
    std::ifstream in(dir / "f.gp");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string decade = script({"0.0003", "0.001", "0.003"});
  EXPECT_NE(decade.find("set logscale x"), std::string::npos) << decade;
  EXPECT_NE(decade.find("set key off"), std::string::npos) << decade;
  EXPECT_EQ(script({"0.001", "0.003", "0.005"}).find("set logscale x"), std::string::npos);
  EXPECT_EQ(script({"0.0001", "0.01"}).find("set logscale x"), std::string::npos);
  posbias::SweepCollection none;
  none.axes = {"--seed"};
  none.metrics = {"acc"};
  EXPECT_THROW(posbias::render_sweep_figure(none, dir / "g"), std::invalid_argument);
  std::filesystem::remove_all(dir);
}
