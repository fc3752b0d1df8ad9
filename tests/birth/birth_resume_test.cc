// `birth --resume`: a measurement killed (SIGKILL) after some seeds have finished resumes from
// its seed journal and gives the numbers an uninterrupted run gives; the journal is removed
// once the result is written; a journal written with other options is refused in one line.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "../cli_run.h"
#include "../process.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> birth_argv(const std::string& json, const std::string& length) {
  return {POSBIAS_BIN, "birth",   "--arch",      "gpt2",     "--layers", "3",       "--d-model",
          "64",        "--heads", "2",           "--length", length,     "--seeds", "24",
          "--method",  "exact",   "--bootstrap", "0",        "--json",   json};
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (std::size_t i = 1; i < argv.size(); ++i) out += (i > 1 ? " " : "") + argv[i];
  return out;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// Finished seeds in the journal (0 while it is absent or being replaced).
std::size_t journal_seeds(const fs::path& journal) {
  std::ifstream in(journal);
  if (!in) return 0;
  try {
    return nlohmann::json::parse(in).at("seeds").size();
  } catch (const std::exception&) {
    return 0;
  }
}

TEST(BirthResume, KilledRunResumesToTheUninterruptedNumbers) {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_birth_resume_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string whole = (dir / "whole.json").string();
  const std::string killed = (dir / "killed.json").string();
  const fs::path journal = killed + ".seeds.json";

  const auto full = posbias_test::run_cli(command_line(birth_argv(whole, "96")), 600);
  ASSERT_EQ(full.code, 0) << full.err;

  int kills = 0;
  for (int attempt = 0; attempt < 3 && kills == 0; ++attempt) {
    posbias_test::Process p(birth_argv(killed, "96"), (dir / "log").string());
    const auto end = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (p.running() && journal_seeds(journal) < 2 && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (p.running()) {
      p.signal(SIGKILL);
      p.wait();
      ++kills;
    }
  }
  ASSERT_EQ(kills, 1) << "the run finished before it could be killed";
  const std::size_t finished = journal_seeds(journal);
  EXPECT_GE(finished, 2u);
  EXPECT_LT(finished, 24u);
  EXPECT_FALSE(fs::exists(killed));

  // Other options: refused in one line, the journal kept.
  posbias_test::expect_error(command_line(birth_argv(killed, "64")) + " --resume", "other options",
                             2);
  EXPECT_EQ(journal_seeds(journal), finished);

  const auto resumed =
      posbias_test::run_cli(command_line(birth_argv(killed, "96")) + " --resume", 600);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_FALSE(fs::exists(journal));
  const nlohmann::json a = read_json(whole), b = read_json(killed);
  ASSERT_EQ(a.at("profile").size(), b.at("profile").size());
  for (std::size_t i = 0; i < a["profile"].size(); ++i)
    EXPECT_DOUBLE_EQ(a["profile"][i].get<double>(), b["profile"][i].get<double>()) << i;
  EXPECT_EQ(a.at("profile_seeds"), b.at("profile_seeds"));
  fs::remove_all(dir);
}

}  // namespace
