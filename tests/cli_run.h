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
#include <string>

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
