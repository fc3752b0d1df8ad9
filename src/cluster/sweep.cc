#include "posbias/cluster/sweep.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "posbias/cluster/sweep_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/csv.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/json_read.h"
#include "posbias/core/machine.h"
#include "posbias/core/plot.h"
#include "posbias/core/shell_quote.h"
#include "posbias/stats/seed_interval.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("grid: " + what); }

std::string value_text(const nlohmann::json& v, const std::string& where) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) return fmt::format("{}", v.get<double>());
  bad(where + " must be a string or a number, not " + v.dump());
}

std::vector<std::string> string_list(const std::vector<GridValue>& values,
                                     const std::string& where) {
  if (values.empty()) bad(where + " must be a non-empty list");
  std::vector<std::string> out;
  for (const auto& v : values) out.push_back(value_text(v, where));
  return out;
}

std::string substitute(std::string s, const SweepRun& run) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{run}", run.dir.string()},
                                   {"{index}", std::to_string(run.index)}}) {
    for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key, at))
      s.replace(at, key.size(), value), at += value.size();
  }
  return s;
}

void check_options(const std::vector<std::string>& args, const std::vector<std::string>& known,
                   const std::string& command, const std::string& where) {
  for (const std::string& a : args) {
    if (a.rfind("--", 0) != 0 || a.size() < 3) continue;
    const std::string name = a.substr(0, a.find('='));
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      bad(fmt::format("{} has '{}', which is not an option of `posbias {}` (see posbias {} --help)",
                      where, name, command, command));
    }
  }
}

// The sweep's own files and the runs' result files, read whole within a limit: a path that
// is not a regular file (a FIFO would block, /dev/zero never ends) is refused in one line.
nlohmann::json read_json(const fs::path& p) {
  const std::string text = read_bounded_file(p, std::uintmax_t{256} << 20, "256 MiB JSON");
  try {
    return parse_json(text, p.string());
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(p.string() + " is not valid JSON");
  }
}

fs::path state_file(const SweepRun& run, const char* name) { return run.dir / name; }

// A run's state file read by its record's strict reader; std::runtime_error naming the file.
template <class Read>
auto read_state(const fs::path& file, Read read) {
  try {
    return read(read_json(file));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file.string() + " is damaged: " + e.what());
  }
}

// A JSON integer in low..high, as text; `where` names it in the message.
std::string integer_field(const nlohmann::json& v, const std::string& where, std::int64_t low,
                          std::int64_t high) {
  if (!v.is_number_integer() ||
      (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) ||
      v.get<std::int64_t>() < low || v.get<std::int64_t>() > high)
    bad(fmt::format("{} must be an integer in {}..{}, not {}", where, low, high,
                    v.dump().substr(0, 40)));
  return std::to_string(v.get<std::int64_t>());
}

// A JSON string matching `pattern` (the whole string), as it is.
std::string pattern_field(const nlohmann::json& v, const std::string& where,
                          const std::regex& pattern, const std::string& what) {
  if (!v.is_string() || !std::regex_match(v.get_ref<const std::string&>(), pattern))
    bad(fmt::format("{} must be {}, not {}", where, what, v.dump().substr(0, 40)));
  return v.get<std::string>();
}

// Slurm's time limit: minutes, or [D-]H:MM:SS (minutes and seconds below 60, hours below 24
// after days), more than zero.
std::string slurm_time(const nlohmann::json& v) {
  const std::string where = "'slurm.time'";
  if (v.is_number()) return integer_field(v, where + " (minutes)", 1, 10'000'000);
  static const std::regex pattern(R"((?:([0-9]{1,3})-)?([0-9]{1,2}):([0-9]{2}):([0-9]{2}))");
  std::smatch m;
  const std::string text = v.is_string() ? v.get<std::string>() : std::string();
  const auto field = [&](int i) { return m[i].matched ? std::stoi(m[i].str()) : 0; };
  if (!v.is_string() || !std::regex_match(text, m, pattern) || field(3) > 59 || field(4) > 59 ||
      (m[1].matched && field(2) > 23) || field(1) + field(2) + field(3) + field(4) == 0)
    bad("'slurm.time' must be HH:MM:SS or D-HH:MM:SS (minutes and seconds 00..59, hours "
        "00..23 after days, not all zero) or whole minutes, not " +
        v.dump().substr(0, 40));
  return text;
}

// GRID.json's 'slurm' fields checked one by one, as the sbatch options they become
// ("--mem=4G"), in the order of their names; "concurrency" becomes the array's "%N". Every value
// is of a fixed alphabet, so nothing in it can end a #SBATCH line or start a shell command.
struct SlurmDirectives {
  std::string concurrency;           // "" or the array's task limit
  std::vector<std::string> options;  // "--cpus-per-task=2", ...
};
SlurmDirectives slurm_directives(const SweepSlurm& s) {
  static const std::regex name("[A-Za-z0-9_.-]{0,64}");
  static const std::regex mem("[1-9][0-9]{0,8}[KMGT]?");
  static const std::regex option("--[a-z][a-z0-9-]{0,40}(=[A-Za-z0-9_.,:=@/+%-]{1,200})?");
  SlurmDirectives d;
  auto named = [&](const char* key, const std::optional<std::string>& v) {
    if (!v) return;
    const std::string text = pattern_field(*v, fmt::format("'slurm.{}'", key), name,
                                           "a name of letters, digits and _.- (at most 64)");
    if (!text.empty()) d.options.push_back(fmt::format("--{}={}", key, text));
  };
  named("account", s.account);
  if (s.concurrency)
    d.concurrency = integer_field(*s.concurrency, "'slurm.concurrency'", 1, 100000);
  if (s.cpus_per_task)
    d.options.push_back("--cpus-per-task=" +
                        integer_field(*s.cpus_per_task, "'slurm.cpus_per_task'", 1, 4096));
  if (s.extra) {
    if (s.extra->size() > 64) bad("'slurm.extra' must be a list of at most 64 sbatch options");
    for (const std::string& e : *s.extra)
      d.options.push_back(pattern_field(
          e, "'slurm.extra' entry", option,
          "an sbatch long option --name or --name=VALUE, VALUE of letters, digits and "
          "_.,:=@/+%-"));
  }
  if (s.mem)
    d.options.push_back("--mem=" + (s.mem->is_number()
                                        ? integer_field(*s.mem, "'slurm.mem' (MB)", 1, 999999999)
                                        : pattern_field(*s.mem, "'slurm.mem'", mem,
                                                        "a size such as 4G or 500M "
                                                        "(digits, then K, M, G or T)")));
  named("partition", s.partition);
  if (s.time) d.options.push_back("--time=" + slurm_time(*s.time));
  return d;
}

// The grid's seeds: distinct non-negative integers.
std::vector<std::string> seed_list(const std::vector<std::int64_t>& seeds) {
  if (seeds.empty() || seeds.size() > 100000)
    bad("'seeds' must be a non-empty list of training seeds");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::int64_t v : seeds) {
    const std::string seed =
        integer_field(v, "each of 'seeds'", 0, std::numeric_limits<std::int64_t>::max());
    if (!seen.insert(seed).second) bad("'seeds' lists " + seed + " twice: each training seed once");
    out.push_back(seed);
  }
  return out;
}

// The sweep directory goes into sweep.sbatch's #SBATCH --output line, where a line break would
// start a shell command, a quote or backslash would end the quoting, and % is a Slurm
// filename pattern: such a directory is refused.
void check_sweep_path(const fs::path& root) {
  for (unsigned char c : root.string()) {
    if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\' && c != '%') continue;
    throw std::invalid_argument(fmt::format(
        "the sweep directory (--out) holds {}, which the Slurm script cannot name safely: choose "
        "a directory without control characters, quotes, backslashes or %",
        c < 0x20 || c == 0x7f ? fmt::format("the control character {:#04x}", c)
                              : fmt::format("'{}'", static_cast<char>(c))));
  }
}

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Numeric leaves of a JSON value as "a.b.c" → x (arrays are skipped: profiles, per-step rows).
void flatten(const nlohmann::json& j, const std::string& prefix, nlohmann::json& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_number() && !prefix.empty()) {
    out[prefix] = j;
  }
}

}  // namespace

std::vector<std::string> command_options(const std::string& command) {
  if (command.empty() ||
      command.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") != std::string::npos) {
    bad("command must start with a posbias command name, not '" + command + "'");
  }
  const std::string line = shell_quote(self_exe()) + " " + command + " --help 2>/dev/null";
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run posbias " + command + " --help");
  std::string help;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) help.append(buf, n);
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || help.find("--help") == std::string::npos)
    bad("'" + command + "' is not a posbias command");
  std::vector<std::string> out;
  const std::regex option("(^|[ ,])(--[a-z0-9][a-z0-9-]*)");
  std::istringstream lines(help);
  for (std::string l; std::getline(lines, l);) {
    const std::size_t start = l.find_first_not_of(' ');
    if (start == std::string::npos || l[start] != '-') continue;  // option lines only
    for (std::sregex_iterator it(l.begin(), l.end(), option), end; it != end; ++it) {
      out.push_back((*it)[2]);
      if (it->position() > 40) break;
    }
  }
  return out;
}

std::string sweep_command(const SweepGrid& grid) {
  return string_list(grid.command, "'command'").front();
}

SweepPlan expand_sweep(const SweepGrid& grid, const fs::path& dir,
                       const std::vector<std::string>& known) {
  const std::vector<std::string> command = string_list(grid.command, "'command'");
  check_options(command, known, command[0], "'command'");
  SweepPlan plan;
  plan.grid = grid;
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  if (grid.grid) {
    for (const auto& [option, values] : *grid.grid) {
      if (option.rfind("--", 0) != 0) bad("'grid' keys are options (--name), not '" + option + "'");
      if (option == "--seed")
        bad("'grid' has a --seed axis: give the training seeds in 'seeds', which the summaries "
            "over seeds read");
      check_options({option}, known, command[0], "'grid'");
      axes.emplace_back(option, string_list(values, "'grid' " + option));
    }
  }
  if (grid.seeds) {
    if (std::find(known.begin(), known.end(), "--seed") == known.end())
      bad("`posbias " + command[0] + "` has no --seed for 'seeds'");
    for (const std::string& a : command)
      if (a == "--seed" || a.rfind("--seed=", 0) == 0)
        bad("'command' has --seed, and 'seeds' adds one to every run: give the seeds in 'seeds' "
            "only");
    axes.emplace_back("--seed", seed_list(*grid.seeds));
  }
  const fs::path root = fs::absolute(dir);
  std::vector<std::string> resume_command;
  std::string resume_when, result;
  if (grid.resume) {
    resume_when = value_text(grid.resume->when, "'resume.when'");
    resume_command = string_list(grid.resume->command, "'resume.command'");
    if (resume_command[0] != command[0]) bad("'resume.command' must run " + command[0] + " too");
    check_options(resume_command, known, command[0], "'resume.command'");
  }
  if (grid.result) result = value_text(*grid.result, "'result'");
  if (grid.slurm) slurm_directives(*grid.slurm);
  check_sweep_path(root);
  for (const auto& [option, _] : axes) plan.axes.push_back(option);

  std::int64_t total = 1;
  for (const auto& [_, values] : axes) {
    total *= static_cast<std::int64_t>(values.size());
    if (total > 100000) bad("more than 100000 runs");
  }
  for (std::int64_t i = 0; i < total; ++i) {
    SweepRun run;
    run.index = static_cast<int>(i);
    run.dir = root / "runs" / fmt::format("{:04d}", i);
    std::int64_t rest = i;  // the last axis varies fastest
    std::vector<std::string> extra;
    for (std::size_t a = axes.size(); a-- > 0;) {
      const auto& [option, values] = axes[a];
      const std::string& v = values[static_cast<std::size_t>(rest % std::ssize(values))];
      rest /= std::ssize(values);
      run.values[option] = v;
    }
    for (const auto& [option, _] : axes) {
      extra.push_back(option);
      extra.push_back(run.values[option]);
    }
    for (const std::string& a : command) run.command.push_back(substitute(a, run));
    run.command.insert(run.command.end(), extra.begin(), extra.end());
    for (const std::string& a : resume_command) run.resume_command.push_back(substitute(a, run));
    if (!resume_when.empty()) run.resume_when = substitute(resume_when, run);
    if (!result.empty()) run.result = substitute(result, run);
    plan.runs.push_back(std::move(run));
  }
  return plan;
}

void write_sweep(const SweepPlan& plan, const fs::path& dir) {
  const fs::path root = fs::absolute(dir);
  const fs::path manifest = root / "manifest.json";
  if (fs::exists(manifest)) {
    if (to_json(read_sweep(root).grid) != to_json(plan.grid)) {
      throw std::invalid_argument("'" + root.string() +
                                  "' holds a sweep of another grid: plan into a new --out");
    }
  }
  ensure_directory(root / "logs");
  ensure_directory(root / "runs");
  const std::string exe = self_exe();
  write_file_atomic(manifest, to_json(SweepManifest{POSBIAS_VERSION, exe, plan}).dump(2) + "\n");
  check_sweep_path(root);
  const SlurmDirectives slurm = slurm_directives(plan.grid.slurm.value_or(SweepSlurm{}));
  const std::size_t n = plan.runs.size();
  std::string sbatch = "#!/bin/bash\n# posbias sweep: one array task per run of manifest.json.\n";
  sbatch += "#SBATCH --job-name=posbias-sweep\n";
  sbatch += fmt::format("#SBATCH --array=0-{}{}\n", n - 1,
                        slurm.concurrency.empty() ? "" : "%" + slurm.concurrency);
  // sbatch reads a directive's value up to white space; a path with spaces goes in double
  // quotes (check_sweep_path refused quotes, backslashes and line breaks in it).
  const std::string log = (root / "logs" / "run-%a.log").string();
  sbatch +=
      "#SBATCH --output=" + (log.find(' ') == std::string::npos ? log : "\"" + log + "\"") + "\n";
  sbatch += "#SBATCH --open-mode=append\n";
  for (const std::string& option : slurm.options) sbatch += "#SBATCH " + option + "\n";
  sbatch += "exec " + shell_quote(exe) + " sweep run " + shell_quote(root.string()) +
            " --index \"$SLURM_ARRAY_TASK_ID\"\n";
  write_file_atomic(root / "sweep.sbatch", sbatch);
  const std::string local = fmt::format(
      "#!/usr/bin/env bash\n"
      "# Runs every run of this sweep on this machine, JOBS at a time: bash run-local.sh --jobs "
      "JOBS\n"
      "# Done runs are skipped and started ones resumed, as the Slurm array does.\n"
      "set -uo pipefail\n"
      "jobs=1\n"
      "if [[ ${{1:-}} == --jobs ]]; then jobs=${{2:?--jobs needs a number}}; fi\n"
      "posbias={}\n"
      "sweep={}\n"
      "seq 0 {} | xargs -P \"$jobs\" -I@ bash -c "
      "'exec \"$0\" sweep run \"$1\" --index \"$2\" >>\"$1/logs/run-$2.log\" 2>&1' "
      "\"$posbias\" \"$sweep\" @\n"
      "code=$?\n"
      "\"$posbias\" sweep status \"$sweep\"\n"
      "exit $code\n",
      shell_quote(exe), shell_quote(root.string()), n - 1);
  write_file_atomic(root / "run-local.sh", local);
  fs::permissions(root / "run-local.sh", fs::perms::owner_exec, fs::perm_options::add);
}

SweepPlan read_sweep(const fs::path& dir) {
  const fs::path manifest = fs::absolute(dir) / "manifest.json";
  if (!fs::exists(manifest))
    throw std::invalid_argument("'" + dir.string() + "' is not a sweep (no manifest.json)");
  try {
    return sweep_manifest_from_json(read_json(manifest)).plan;
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(manifest.string() + " is damaged: " + e.what());
  }
}

namespace {
constexpr EnumNames<RunState, 4> kRunStateNames{{{RunState::kPending, "pending"},
                                                 {RunState::kStarted, "started"},
                                                 {RunState::kDone, "done"},
                                                 {RunState::kFailed, "failed"}}};
}  // namespace

const char* to_string(RunState s) {
  return name_of(kRunStateNames, s).data();  // the table's names are literals
}

RunState parse_run_state(const std::string& name) {
  return value_of(kRunStateNames, name, "run state");
}

RunState run_state(const SweepRun& run) {
  if (fs::exists(state_file(run, "done.json"))) return RunState::kDone;
  if (fs::exists(state_file(run, "failed.json"))) return RunState::kFailed;
  if (fs::exists(state_file(run, "started.json"))) return RunState::kStarted;
  return RunState::kPending;
}

namespace {

// The folder an argument names below the run's own directory (`{run}/eval/x.json` makes
// {run}/eval): the sweep owns that directory, and the run's command creates no missing folder
// outside its working directory (check_output_folder), where a sweep's runs usually are.
void make_folder_below_run(const SweepRun& run, const std::string& arg) {
  const fs::path path = fs::path(arg).lexically_normal();
  if (!path.is_absolute()) return;
  const fs::path below = path.lexically_relative(run.dir.lexically_normal());
  if (below.empty() || *below.begin() == ".." || !below.has_parent_path()) return;
  ensure_directory(path.parent_path());
}

}  // namespace

int run_sweep_entry(const fs::path& dir, int index) {
  const SweepPlan plan = read_sweep(dir);
  if (index < 0 || index >= std::ssize(plan.runs)) {
    throw std::invalid_argument(
        fmt::format("--index {} is outside this sweep's 0..{}", index, plan.runs.size() - 1));
  }
  const SweepRun& run = plan.runs[static_cast<std::size_t>(index)];
  ensure_directory(run.dir);
  // One attempt at a time: a resubmitted task waits for nothing and says so.
  // O_NOFOLLOW: a lock that is a symbolic link is never followed, so no file outside the run's
  // directory is created or opened through it.
  const fs::path lock_path = run.dir / "lock";
  const int lock = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock < 0) {
    throw std::runtime_error(fmt::format("cannot open the lock file '{}': {}; remove it and rerun",
                                         lock_path.string(), std::strerror(errno)));
  }
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    std::fprintf(stderr, "posbias sweep: run %d is running in another process\n", index);
    return 1;
  }
  if (run_state(run) == RunState::kDone) {
    std::fprintf(stderr, "posbias sweep: run %d is done; skipped\n", index);
    return 0;
  }
  fs::remove(state_file(run, "failed.json"));
  const bool resume = !run.resume_when.empty() && fs::exists(run.resume_when);
  const std::vector<std::string>& args = resume ? run.resume_command : run.command;
  for (const std::string& a : args) make_folder_below_run(run, a);
  SweepStarted started;
  if (fs::exists(state_file(run, "started.json")))
    started = read_state(state_file(run, "started.json"), sweep_started_from_json);
  const char* job = std::getenv("SLURM_JOB_ID");
  started.attempts.push_back(
      {now_text(), machine_info().value("host", ""), resume, job ? job : ""});
  write_file_atomic(state_file(run, "started.json"), to_json(started).dump(2) + "\n");
  std::string line;
  for (const std::string& a : args) line += " " + a;
  std::fprintf(stderr, "posbias sweep: run %d %s:%s\n", index, resume ? "resumes" : "starts",
               line.c_str());
  std::fflush(stderr);

  const auto t0 = std::chrono::steady_clock::now();
  const std::string exe = self_exe();
  std::vector<std::string> argv_strings{exe};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execv(exe.c_str(), argv.data());
    std::_Exit(127);
  }
  if (pid < 0) throw std::runtime_error("sweep: fork failed: " + std::string(std::strerror(errno)));
  // Slurm's cancel and a Ctrl-C reach the run too; this process waits for it either way.
  std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGINT, SIG_IGN);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string record =
      to_json(SweepRunEnd{code, seconds, now_text(), std::ssize(started.attempts)}).dump(2) + "\n";
  if (code == 0) {
    write_file_atomic(state_file(run, "done.json"), record);
    std::fprintf(stderr, "posbias sweep: run %d done in %.1f s\n", index, seconds);
  } else if (!WIFSIGNALED(status)) {
    // A run killed by a signal stays "started", to be resumed; one that exited failed.
    write_file_atomic(state_file(run, "failed.json"), record);
    std::fprintf(stderr, "posbias sweep: run %d failed with exit code %d\n", index, code);
  }
  return code;
}

SweepStatus sweep_status(const SweepPlan& plan) {
  SweepStatus status;
  status.runs = static_cast<int>(plan.runs.size());
  for (const SweepRun& r : plan.runs) {
    const RunState s = run_state(r);
    ++(s == RunState::kDone      ? status.done
       : s == RunState::kStarted ? status.started
       : s == RunState::kPending ? status.pending
                                 : status.failed);
    SweepRunStatus row{r.index, s, r.values, r.dir.string(), {}, {}, {}};
    if (s == RunState::kDone || s == RunState::kFailed) {
      const SweepRunEnd end =
          read_state(state_file(r, s == RunState::kDone ? "done.json" : "failed.json"),
                     sweep_run_end_from_json);
      row.code = end.code;
      row.seconds = end.seconds;
      row.attempts = end.attempts;
    }
    status.states.push_back(std::move(row));
  }
  return status;
}

SweepCollection read_sweep_collection(const fs::path& file) {
  const std::string text = read_bounded_file(file, std::uintmax_t{256} << 20, "256 MiB JSON");
  try {
    return sweep_collection_from_json(parse_json(text, file.string()));
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(file.string() + " is not valid JSON");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file.string() + ": " + e.what() +
                                " (is it a sweep collect --json result?)");
  }
}

void render_sweep_figure(const SweepCollection& c, const std::filesystem::path& stem) {
  std::vector<std::string> point_axes;  // every axis but --seed
  for (const std::string& a : c.axes)
    if (a != "--seed") point_axes.push_back(a);
  if (c.metrics.empty()) throw std::invalid_argument("--plot needs a --metric to draw");
  if (point_axes.empty()) throw std::invalid_argument("--plot needs a grid axis besides --seed");
  const std::string& m = c.metrics.front();
  // x: the first axis, its values in grid order; a series per value of the other axes.
  std::vector<std::string> xs;
  for (const SweepCollectedRun& r : c.runs) {
    const auto v = r.values.find(point_axes[0]);
    if (v != r.values.end() && std::find(xs.begin(), xs.end(), v->second) == xs.end())
      xs.push_back(v->second);
  }
  bool numeric = true, positive = true;
  double lo = INFINITY, hi = -INFINITY;
  for (const std::string& v : xs) {
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    numeric = numeric && end != v.c_str() && *end == '\0';
    positive = positive && x > 0;
    lo = std::min(lo, x), hi = std::max(hi, x);
  }
  // The other axes' values → the first metric at each x, sorted by x.
  std::map<std::vector<std::string>, std::vector<std::pair<double, SweepMetricSummary>>> lines;
  for (const SweepPointSummary& point : c.summary) {
    std::vector<std::string> rest;
    for (std::size_t a = 1; a < point_axes.size(); ++a)
      rest.push_back(point.values.at(point_axes[a]));
    const std::string& v = point.values.at(point_axes[0]);
    const double x = numeric ? std::stod(v)
                             : static_cast<double>(std::find(xs.begin(), xs.end(), v) - xs.begin());
    lines[rest].emplace_back(x, point.metrics.at(m));
  }
  Panel panel;
  panel.title = m + " (seed mean, 95% t interval)";
  panel.xlabel = point_axes[0].substr(2);
  panel.ylabel = m;
  // A grid of rates or sizes spans decades: spaced by ratio, as it was chosen.
  panel.log_x = numeric && positive && xs.size() > 2 && hi >= 10 * lo;
  for (auto& [rest, line] : lines) {
    std::sort(line.begin(), line.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    Series s;
    for (std::size_t a = 0; a < rest.size(); ++a)
      s.title += (s.title.empty() ? "" : ", ") + point_axes[a + 1].substr(2) + " " + rest[a];
    s.style = "linespoints";
    for (const auto& [x, stat] : line) {  // a point without an interval (one seed) has no band
      const bool band =
          stat.ci.size() == 2 && std::isfinite(stat.ci[0]) && std::isfinite(stat.ci[1]);
      s.x.push_back(x);
      s.y.push_back(stat.mean);
      s.y_low.push_back(band ? stat.ci[0] : stat.mean);
      s.y_high.push_back(band ? stat.ci[1] : stat.mean);
    }
    panel.series.push_back(std::move(s));
  }
  if (panel.series.size() == 1 && panel.series[0].title.empty()) panel.key = "off";  // the y label
  Figure figure;
  figure.panels.push_back(std::move(panel));
  render_figure(figure, stem);
}

SweepCollection collect_sweep(const SweepPlan& plan, const CollectOptions& o) {
  std::vector<std::string> point_axes;  // every axis but --seed
  for (const std::string& a : plan.axes)
    if (a != "--seed") point_axes.push_back(a);
  struct Collected {
    const SweepRun* run;
    std::vector<double> metrics;  // o.metrics' values in this run
  };
  std::vector<Collected> collected;
  // Grid point (values of point_axes) → per metric, its values over the seeds.
  std::map<std::vector<std::string>, std::vector<std::vector<double>>> points;
  SweepCollection out;
  out.axes = plan.axes;
  out.metrics = o.metrics;
  for (const SweepRun& r : plan.runs) {
    if (run_state(r) != RunState::kDone || r.result.empty() || !fs::exists(r.result)) {
      ++out.not_done;
      continue;
    }
    nlohmann::json flat = nlohmann::json::object();
    flatten(read_json(r.result), "", flat);
    Collected c{&r, {}};
    for (const std::string& m : o.metrics) {
      if (!flat.contains(m)) {
        throw std::invalid_argument(fmt::format(
            "--metric '{}' is not a number in {} (its numbers are dotted paths like '{}')", m,
            r.result.string(), flat.empty() ? "" : flat.begin().key()));
      }
      c.metrics.push_back(flat[m].get<double>());
    }
    std::vector<std::string> key;
    for (const std::string& a : point_axes) key.push_back(r.values.at(a));
    auto& per_metric = points[key];
    per_metric.resize(o.metrics.size());
    for (std::size_t m = 0; m < o.metrics.size(); ++m) per_metric[m].push_back(c.metrics[m]);
    collected.push_back(std::move(c));
    out.runs.push_back({r.index, r.values, flat.get<std::map<std::string, nlohmann::json>>()});
  }
  out.collected = std::ssize(out.runs);
  for (const auto& [key, per_metric] : points) {
    SweepPointSummary& row = out.summary.emplace_back();
    for (std::size_t a = 0; a < point_axes.size(); ++a) row.values[point_axes[a]] = key[a];
    for (std::size_t m = 0; m < o.metrics.size(); ++m) {
      const SeedInterval s = seed_interval(per_metric[m]);
      row.metrics[o.metrics[m]] = {s.mean, {s.low, s.high}, s.n};
    }
  }
  if (!o.json.empty()) write_file_atomic(o.json, to_json(out).dump(2) + "\n");
  if (!o.csv.empty()) {
    std::string csv = "index";
    for (const std::string& a : plan.axes) csv += "," + csv_quoted(a.substr(2));
    for (const std::string& m : o.metrics) csv += "," + csv_quoted(m);
    csv += "\n";
    for (const Collected& c : collected) {
      csv += std::to_string(c.run->index);
      for (const std::string& a : plan.axes) csv += "," + csv_quoted(c.run->values.at(a));
      for (double v : c.metrics) csv += fmt::format(",{}", v);
      csv += "\n";
    }
    write_file_atomic(o.csv, csv);
  }
  if (!o.plot.empty()) render_sweep_figure(out, o.plot);
  return out;
}

}  // namespace posbias
