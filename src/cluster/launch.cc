#include "posbias/cluster/launch.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "posbias/core/flag_rows.h"

extern char** environ;

namespace posbias {
namespace {

volatile std::sig_atomic_t stop_signal = 0;
void on_signal(int sig) { stop_signal = sig; }

// A TCP port nothing listens on right now (the kernel's pick for port 0 on loopback).
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("launch: cannot open a socket to find a free port");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("launch: cannot find a free port; give --master-port");
  return ntohs(addr.sin_port);
}

std::string describe(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with code {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {}", WTERMSIG(status));
  return "stopped";
}

// The ranks' stderr, relayed line by line to launch's own: an error line that another rank has
// already printed word for word (every rank refusing the same bad option) is printed once.
class StderrRelay {
 public:
  void add(int fd) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    fds_.push_back({fd, POLLIN, 0});
    partial_.emplace_back();
  }
  void pump(int timeout_ms) {
    if (fds_.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
      return;
    }
    if (::poll(fds_.data(), fds_.size(), timeout_ms) <= 0) return;
    for (std::size_t i = 0; i < fds_.size(); ++i) {
      if (fds_[i].fd < 0 || (fds_[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fds_[i].fd, buf, sizeof buf);
      if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) close(i);
        continue;
      }
      partial_[i].append(buf, static_cast<std::size_t>(n));
      emit(i, false);
    }
  }
  void drain() {
    for (int round = 0; round < 100 && open_count() > 0; ++round) pump(10);
    for (std::size_t i = 0; i < fds_.size(); ++i) close(i);
  }

 private:
  std::size_t open_count() const {
    std::size_t n = 0;
    for (const pollfd& p : fds_) n += p.fd >= 0 ? 1 : 0;
    return n;
  }
  void close(std::size_t i) {
    if (fds_[i].fd < 0) return;
    ::close(fds_[i].fd);
    fds_[i].fd = -1;
    emit(i, true);
  }
  // Complete lines (and, at the end, the rest); progress redraws end in \r and pass as they are.
  void emit(std::size_t i, bool all) {
    std::string& s = partial_[i];
    std::size_t start = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (s[k] != '\n' && s[k] != '\r') continue;
      write(s.substr(start, k + 1 - start));
      start = k + 1;
    }
    s.erase(0, start);
    if (all && !s.empty()) write(s + "\n"), s.clear();
  }
  void write(const std::string& line) {
    if (line.rfind("posbias: error:", 0) == 0 && !errors_.insert(line).second) return;
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  }
  std::vector<pollfd> fds_;
  std::vector<std::string> partial_;
  std::set<std::string> errors_;
};

}  // namespace

std::map<std::string, std::string> rank_environment(const LaunchOptions& o, int local_rank,
                                                    int master_port, int cores) {
  std::map<std::string, std::string> env{
      {"RANK", std::to_string(o.node_rank * o.nproc + local_rank)},
      {"WORLD_SIZE", std::to_string(o.nnodes * o.nproc)},
      {"LOCAL_RANK", std::to_string(local_rank)},
      {"LOCAL_WORLD_SIZE", std::to_string(o.nproc)},
      {"MASTER_ADDR", o.master_addr.empty() ? std::string("127.0.0.1") : o.master_addr},
      {"MASTER_PORT", std::to_string(master_port)}};
  const char* threads = std::getenv("OMP_NUM_THREADS");
  if (threads == nullptr || *threads == '\0')
    env["OMP_NUM_THREADS"] = std::to_string(std::max(1, cores / o.nproc));
  return env;
}

namespace {

void check_launch_options(const LaunchOptions& o) {
  if (o.command.empty()) {
    throw std::invalid_argument(
        "launch needs a command after --, e.g. posbias launch --nproc 2 -- train --task number");
  }
  if (o.command.front() == "launch") throw std::invalid_argument("launch cannot launch itself");
  if (std::find(std::begin(kDataParallelCommands), std::end(kDataParallelCommands),
                o.command.front()) == std::end(kDataParallelCommands)) {
    std::string names;
    for (const char* c : kDataParallelCommands)
      names += (names.empty() ? "" : ", ") + std::string(c);
    throw std::invalid_argument(
        fmt::format("launch starts the ranks of a data-parallel command ({}); '{}' is not one, "
                    "and each rank would run it whole: run it without launch",
                    names, o.command.front().substr(0, 40)));
  }
  if (o.nproc < 1 || o.nproc > 1024) throw std::invalid_argument("--nproc must be in 1..1024");
  if (o.nnodes < 1 || o.node_rank < 0 || o.node_rank >= o.nnodes) {
    throw std::invalid_argument(fmt::format("--node-rank {} is outside 0..{} (--nnodes {})",
                                            o.node_rank, o.nnodes - 1, o.nnodes));
  }
  if (o.nnodes > 1 && (o.master_addr.empty() || o.master_port == 0)) {
    throw std::invalid_argument(
        "a launch over several nodes needs --master-addr and --master-port (node 0's address)");
  }
  if (o.master_port < 0 || o.master_port > 65535)
    throw std::invalid_argument("--master-port must be in 1..65535");
}

// SIGINT and SIGTERM caught while the ranks run (they stop the ranks), restored at the end.
class SignalScope {
 public:
  SignalScope() {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
    stop_signal = 0;
  }
  ~SignalScope() { restore(); }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;
  void restore() const {  // also in a forked rank, before it runs the command
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

// Every rank forked with this process's environment, the rank variables replaced, and the
// same arguments: this executable and the command. Their stderr goes to the relay.
std::vector<pid_t> start_ranks(const LaunchOptions& o, int port, const SignalScope& signals,
                               StderrRelay& relay) {
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::map<std::string, std::string> inherited;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    const std::size_t eq = kv.find('=');
    if (eq != std::string::npos) inherited[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  std::vector<std::string> args{exe};
  args.insert(args.end(), o.command.begin(), o.command.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<pid_t> pids;
  for (int r = 0; r < o.nproc; ++r) {
    std::map<std::string, std::string> env = inherited;
    for (auto& [k, v] : rank_environment(o, r, port, cores)) env[k] = v;
    std::vector<std::string> env_strings;
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (std::string& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
    int err_pipe[2];
    if (::pipe(err_pipe) != 0) err_pipe[0] = err_pipe[1] = -1;
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (err_pipe[1] >= 0) {
        ::dup2(err_pipe[1], 2);
        ::close(err_pipe[0]);
        ::close(err_pipe[1]);
      }
      signals.restore();
      ::execve(exe.c_str(), argv.data(), envp.data());
      std::fprintf(stderr, "posbias launch: cannot run %s: %s\n", exe.c_str(),
                   std::strerror(errno));
      std::_Exit(127);
    }
    if (pid < 0) {
      for (pid_t p : pids) ::kill(p, SIGKILL);
      for (pid_t p : pids) ::waitpid(p, nullptr, 0);
      throw std::runtime_error("launch: fork failed: " + std::string(std::strerror(errno)));
    }
    pids.push_back(pid);
    if (err_pipe[1] >= 0) {
      ::close(err_pipe[1]);
      relay.add(err_pipe[0]);
    }
  }
  return pids;
}

// Waits for every rank; the first failure (or a signal to launch) stops every rank still
// running, with SIGKILL after the grace period. Returns launch's exit code.
int wait_ranks(const LaunchOptions& o, const std::vector<pid_t>& pids, StderrRelay& relay) {
  std::vector<bool> running(pids.size(), true);
  std::size_t left = pids.size();
  int code = 0;
  bool stopping = false;
  std::chrono::steady_clock::time_point stop_time;
  auto stop_all = [&](int sig) {
    for (std::size_t i = 0; i < pids.size(); ++i)
      if (running[i]) ::kill(pids[i], sig);
  };
  while (left > 0) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      const auto it = std::find(pids.begin(), pids.end(), pid);
      if (it == pids.end()) continue;
      const std::size_t i = static_cast<std::size_t>(it - pids.begin());
      running[i] = false;
      --left;
      const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
      if (failed && !stopping) {
        code = WIFEXITED(status) && WEXITSTATUS(status) == 2 ? 2 : 1;
        if (left > 0 && code != 2) {  // bad usage: every rank says so itself
          std::fprintf(stderr, "posbias launch: rank %d %s; stopping the other ranks\n",
                       o.node_rank * o.nproc + static_cast<int>(i), describe(status).c_str());
        }
        stopping = true;
        stop_time = std::chrono::steady_clock::now();
        stop_all(SIGTERM);
      }
      continue;
    }
    if (stop_signal != 0 && !stopping) {
      stopping = true;
      code = 1;
      stop_time = std::chrono::steady_clock::now();
      stop_all(SIGTERM);
    }
    if (stopping && std::chrono::steady_clock::now() - stop_time > o.grace) stop_all(SIGKILL);
    relay.pump(20);
  }
  relay.drain();
  return code;
}

}  // namespace

bool asks_for_help(const std::vector<std::string>& command) {
  for (const std::string& a : command) {
    if (a == "--") return false;  // what follows is the command's own positional text
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int launch_ranks(const LaunchOptions& options) {
  check_launch_options(options);
  LaunchOptions o = options;
  if (asks_for_help(o.command)) {  // the command's help, printed once: one process, one node
    o.nproc = o.nnodes = 1;
    o.node_rank = 0;
  }
  const int port = o.master_port != 0 ? o.master_port : free_port();
  const SignalScope signals;
  StderrRelay relay;
  return wait_ranks(o, start_ranks(o, port, signals, relay), relay);
}

const std::vector<FieldRow<LaunchOptions>>& launch_option_fields() {
  using O = LaunchOptions;
  static const std::vector<FieldRow<O>> rows = {
      integer_field("nproc", &O::nproc, "ranks on this machine"),
      integer_field("nnodes", &O::nnodes, "machines in the run (launch once on each)"),
      integer_field("node_rank", &O::node_rank, "this machine's index, 0..nnodes-1"),
      field("master_addr", &O::master_addr,
            "address of node 0, where rank 0 serves the rendezvous (default 127.0.0.1)", "ADDRESS"),
      integer_field("master_port", &O::master_port,
                    "port of the rendezvous (0: a free port; needed across machines)"),
  };
  return rows;
}

}  // namespace posbias
