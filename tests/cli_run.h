// Running the posbias binary from tests: exit code, stdout and stderr of one command line.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>

namespace posbias_test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Runs a shell command line; its stdout and stderr are captured.
inline CliResult run_shell(const std::string& command) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string out = (dir / ("posbias_cli_out_" + std::to_string(::getpid()))).string();
  const std::string err = (dir / ("posbias_cli_err_" + std::to_string(::getpid()))).string();
  const std::string cmd = command + " >" + out + " 2>" + err + " </dev/null";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Runs `posbias ARGS` (under `timeout 120` unless the test gives its own prefix).
inline CliResult run_cli(const std::string& args, int timeout_seconds = 120) {
  return run_shell("timeout " + std::to_string(timeout_seconds) + " " + std::string(POSBIAS_BIN) +
                   " " + args);
}

// A fresh path `name` in this test process's own temporary folder (`suite`_PID): whatever was
// there is removed, and the folder exists.
inline std::filesystem::path scratch_path(const std::string& suite, const std::string& name) {
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / (suite + "_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p.parent_path());
  return p;
}

// The run `posbias FLAGS --out DIR`, trained once per test process: DIR is `name` in `suite`'s
// scratch folder, and a later call with the same suite and name returns it without training again
// (failing the test if the flags differ). A failed training fails the test that asked first.
inline const std::filesystem::path& trained_once(const std::string& suite, const std::string& name,
                                                 const std::string& flags) {
  static std::map<std::string, std::pair<std::string, std::filesystem::path>> runs;
  auto run = runs.find(suite + "/" + name);
  if (run == runs.end()) {
    const std::filesystem::path dir = scratch_path(suite, name);
    const CliResult r = run_cli(flags + " --out " + dir.string(), 300);
    EXPECT_EQ(r.code, 0) << flags << "\n" << r.err;
    run = runs.emplace(suite + "/" + name, std::make_pair(flags, dir)).first;
  }
  EXPECT_EQ(run->second.first, flags) << suite << "/" << name << " was trained with other flags";
  return run->second.second;
}

// The tiny kv run the CLI tests train: `layers` layers of d 16 with 2 heads and MLP 32 on inputs
// of `length` tokens, `steps` steps of 8 examples (one of warm-up), evaluated on 16 held-out
// examples and checkpointed every 2 steps. A test adds its own flags after these (the command
// line refuses a flag given twice, whatever else is wrong).
inline constexpr int kTinyKvLength = 40;
inline std::string tiny_kv_flags(int layers = 1, int steps = 4, int length = kTinyKvLength) {
  return "train --task kv --layers " + std::to_string(layers) +
         " --d-model 16 --heads 2 --mlp 32 --length " + std::to_string(length) + " --steps " +
         std::to_string(steps) +
         " --warmup 1 --eval-every 2 --checkpoint-every 2 --eval-per-hop 16 --batch 8 ";
}

// A fresh folder (in `suite`'s scratch folder) holding only docs/, a link to the source's: the
// shipped files' relative paths resolve there, and the run folders they name do not, whatever a
// checkout holds beside docs/.
inline std::filesystem::path docs_only_folder(const std::string& suite) {
  const std::filesystem::path d = scratch_path(suite, "docs_only");
  std::filesystem::create_directories(d);
  std::filesystem::create_directory_symlink(std::filesystem::path(POSBIAS_SOURCE_DIR) / "docs",
                                            d / "docs");
  return d;
}

inline int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// One line on stderr that mentions `mentions`, and exit code `code` (2 = bad usage).
inline void expect_error(const std::string& args, const std::string& mentions, int code = 2) {
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.code, code) << args << "\n" << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << args << ": " << r.err;
}
inline void expect_usage_error(const std::string& args, const std::string& mentions) {
  expect_error(args, mentions, 2);
}

}  // namespace posbias_test
