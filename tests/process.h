// Background processes for tests that need a live server or a process to kill: spawn with
// output to files, signal, wait, and wait for a port file.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace posbias_test {

class Process {
 public:
  // Runs argv[0] with stdout and stderr to `log`.
  Process(const std::vector<std::string>& argv, const std::string& log) {
    pid_ = ::fork();
    if (pid_ == 0) {
      std::FILE* f = std::freopen(log.c_str(), "w", stdout);
      if (f == nullptr || ::dup2(::fileno(stdout), 2) < 0) ::_exit(127);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
  }
  ~Process() {
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) const { ::kill(pid_, sig); }
  // Exit code, or 128 + signal.
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  bool running() {
    int status = 0;
    if (waited_) return false;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      waited_ = true;
      return false;
    }
    return true;
  }

 private:
  pid_t pid_ = -1;
  bool waited_ = false;
};

// The port a server wrote to `file`, waiting up to `seconds` for it; 0 on timeout.
inline int wait_for_port(const std::filesystem::path& file, double seconds = 60) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    std::ifstream in(file);
    int port = 0;
    if (in >> port && port > 0) return port;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return 0;
}

}  // namespace posbias_test
