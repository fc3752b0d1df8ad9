// Killing a training run while it works: start it, SIGKILL it once it has made progress,
// resume it, several times at different moments after that progress, so some kills land in
// the middle of a checkpoint or metrics write. It waits for the state it needs (a new
// metrics line), never for a fixed time: start-up takes longer on a busy machine. The
// resumed run's metrics lines, without their timing fields, must equal an uninterrupted
// run's (metrics_without_timing).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace posbias_test {

// RUN/metrics.jsonl, each line without tokens_per_s and train_seconds (they differ between
// runs).
inline std::vector<nlohmann::json> metrics_without_timing(const std::filesystem::path& run) {
  std::vector<nlohmann::json> rows;
  std::ifstream in(run / "metrics.jsonl");
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.erase("tokens_per_s");
    j.erase("train_seconds");
    rows.push_back(j);
  }
  return rows;
}

// `start` and `resume` are whole command lines; `run` is the run directory they write.
// Returns how many times the run was killed (the caller finishes it with a last resume).
inline int kill_while_training(const std::string& start, const std::string& resume,
                               const std::filesystem::path& run) {
  namespace fs = std::filesystem;
  auto lines = [&run] {
    std::ifstream in(run / "metrics.jsonl");
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
    return n;
  };
  int kills = 0;
  for (int attempt = 0; attempt < 6; ++attempt) {
    const std::size_t before = fs::exists(run / "train.json") ? lines() : 0;
    const pid_t pid = fork();
    if (pid < 0) {
      ADD_FAILURE() << "fork failed";
      return kills;
    }
    if (pid == 0) {
      const bool begun = fs::exists(run / "train.json");
      const std::string cmd = (begun ? resume : start) + " 2>/dev/null";
      execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    bool exited = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (!(exited = waitpid(pid, &status, WNOHANG) == pid)) {
      if (fs::exists(run / "train.json") && lines() > before) break;
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ADD_FAILURE() << "no progress in 300 s";
        return kills;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!exited) {
      std::this_thread::sleep_for(std::chrono::milliseconds(37 * attempt));  // vary the moment
      if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ++kills;
        continue;
      }
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    break;
  }
  return kills;
}

}  // namespace posbias_test
