// `posbias sweep` as users run it: a grid of tiny training runs planned into a directory, run on
// this machine (`run-local.sh`) and on a real single-node Slurm (scripts/local-slurm.sh, from
// Debian's slurm-wlm and munge) where one array task is killed mid-run and the array
// resubmitted. Every run must finish exactly once, the killed one resumed, with the numbers of
// the local run; bad grids get one line and exit 2.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "../cli_run.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_sweep", name); }

// 2 learning rates × 2 seeds of a tiny Number model, long enough (a few seconds each) to be
// killed mid-run, resumable with train --resume.
nlohmann::json tiny_grid() {
  return nlohmann::json::parse(R"({
    "command": ["train", "--task", "number", "--layers", "2", "--d-model", "32", "--mlp", "64",
                "--rotary-dim", "8", "--steps", "400", "--warmup", "20", "--eval-every", "50",
                "--checkpoint-every", "50", "--eval-per-hop", "16", "--out", "{run}/train"],
    "grid": {"--lr": [0.001, 0.003]},
    "seeds": [0, 1],
    "resume": {"when": "{run}/train/train.json", "command": ["train", "--resume", "{run}/train"]},
    "result": "{run}/train/summary.json",
    "slurm": {"cpus_per_task": 1, "mem": "1G", "time": "00:10:00", "concurrency": 2}
  })");
}

fs::path write_grid(const fs::path& file, const nlohmann::json& grid) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << grid.dump(2);
  return file;
}

// The losses a run logged, step by step (timing fields left out).
std::vector<double> losses(const fs::path& run) {
  std::vector<double> out;
  std::ifstream in(run / "train" / "metrics.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    out.push_back(j["loss"].is_null() ? -1.0 : j["loss"].get<double>());
  }
  return out;
}

// One thread per run, so a run's numbers do not depend on where it ran.
const std::string kEnv = "OMP_NUM_THREADS=1 ";

TEST(Sweep, PlanExpandsTheGridAndRefusesBadGrids) {
  const fs::path dir = scratch("plan");
  const fs::path grid = write_grid(dir / "grid.json", tiny_grid());
  CliResult r = run_cli("sweep plan " + grid.string() + " --out " + (dir / "sweep").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto manifest = nlohmann::json::parse(slurp(dir / "sweep" / "manifest.json"));
  ASSERT_EQ(manifest["runs"].size(), 4u);
  EXPECT_EQ(manifest["axes"], nlohmann::json({"--lr", "--seed"}));
  // The last axis varies fastest; {run} is the run's directory.
  EXPECT_EQ(manifest["runs"][1]["values"], nlohmann::json({{"--lr", "0.001"}, {"--seed", "1"}}));
  const std::string run1 = manifest["runs"][1]["dir"].get<std::string>();
  EXPECT_EQ(manifest["runs"][1]["command"].back(), "1");
  EXPECT_NE(manifest["runs"][1]["command"].dump().find(run1 + "/train"), std::string::npos);
  const std::string sbatch = slurp(dir / "sweep" / "sweep.sbatch");
  for (const char* line : {"#SBATCH --array=0-3%2", "#SBATCH --cpus-per-task=1", "#SBATCH --mem=1G",
                           "sweep run", "$SLURM_ARRAY_TASK_ID"}) {
    EXPECT_NE(sbatch.find(line), std::string::npos) << line << "\n" << sbatch;
  }
  // Planning again with the same grid is fine; another grid over it is refused.
  EXPECT_EQ(run_cli("sweep plan " + grid.string() + " --out " + (dir / "sweep").string()).code, 0);
  nlohmann::json other = tiny_grid();
  other["seeds"] = {0, 1, 2};
  expect_usage_error("sweep plan " + write_grid(dir / "other.json", other).string() + " --out " +
                         (dir / "sweep").string(),
                     "another grid");

  auto refused = [&](const nlohmann::json& g, const std::string& mentions) {
    expect_usage_error("sweep plan " + write_grid(dir / "bad.json", g).string() + " --out " +
                           (dir / "bad").string(),
                       mentions);
    EXPECT_FALSE(fs::exists(dir / "bad")) << mentions;
  };
  nlohmann::json g = tiny_grid();
  g["grid"] = {{"--rotary_dim", {0, 16}}};
  refused(g, "'--rotary_dim', which is not an option of `posbias train`");
  g = tiny_grid();
  g["grid"] = {{"--lr", nlohmann::json::array()}};
  refused(g, "non-empty list");
  g = tiny_grid();
  g["seed"] = {1};
  refused(g, "unknown GRID.json field 'seed'");
  g = tiny_grid();
  g["command"][0] = "trian";
  refused(g, "not a posbias command");
  g = tiny_grid();
  g["slurm"]["gpus"] = 1;
  refused(g, "unknown GRID.json field 'slurm.gpus'");
  expect_usage_error("sweep status " + (dir / "nowhere").string(), "not a sweep");
  expect_usage_error("sweep run " + (dir / "sweep").string() + " --index 4", "outside");
}

// Every 'slurm' field is checked for its format and range, and every value written into
// sweep.sbatch and run-local.sh is quoted or of a fixed alphabet: a grid that would put a shell
// line into the script (a line break in "mem") gets one line, exit 2, and nothing is written.
// Seeds are distinct non-negative integers, given in 'seeds' only.
TEST(Sweep, PlanChecksEverySlurmFieldAndSeed) {
  const fs::path dir = scratch("inject");
  const fs::path marker = dir / "injected";
  auto refused = [&](const nlohmann::json& g, const std::string& mentions) {
    expect_usage_error("sweep plan " + write_grid(dir / "bad.json", g).string() + " --out " +
                           (dir / "bad").string(),
                       mentions);
    EXPECT_FALSE(fs::exists(dir / "bad")) << mentions;
  };
  // A grid of a torch-free command, so that planning needs no torch plugin.
  const nlohmann::json tasks_grid = {
      {"command", {"tasks", "--task", "number", "--count", "4", "--out", "{run}/x.jsonl"}},
      {"grid", {{"--length", {17, 32}}}},
      {"seeds", {0, 1}},
      {"slurm", {{"cpus_per_task", 1}, {"mem", "1G"}, {"time", "00:10:00"}, {"concurrency", 2}}}};
  auto slurm = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json g = tasks_grid;
    g["slurm"][key] = value;
    return g;
  };
  const std::string shell_line = "\ntouch " + marker.string() + "\n";
  refused(slurm("mem", "4G" + shell_line), "'slurm.mem' must be a size such as 4G");
  refused(slurm("mem", "4 G"), "'slurm.mem'");
  refused(slurm("mem", "0"), "'slurm.mem'");
  refused(slurm("time", "02:00:00" + shell_line), "'slurm.time' must be HH:MM:SS");
  refused(slurm("time", "1-25:00:00"), "'slurm.time'");
  refused(slurm("time", "00:61:00"), "'slurm.time'");
  refused(slurm("time", "00:00:00"), "'slurm.time'");
  refused(slurm("partition", "debug" + shell_line), "'slurm.partition' must be a name");
  refused(slurm("account", "a;b"), "'slurm.account' must be a name");
  refused(slurm("concurrency", -1), "'slurm.concurrency' must be an integer in 1..100000");
  refused(slurm("concurrency", "4\n"), "'slurm.concurrency' must be a number (an integer)");
  refused(slurm("cpus_per_task", 1e18), "'slurm.cpus_per_task' must be a number (an integer)");
  refused(slurm("cpus_per_task", 5000), "'slurm.cpus_per_task' must be an integer in 1..4096");
  refused(slurm("cpus_per_task", 0), "'slurm.cpus_per_task'");
  refused(slurm("extra", {"--mail-type=END" + shell_line}), "'slurm.extra' entry");
  refused(slurm("extra", {"--wrap=$(id)"}), "'slurm.extra' entry");
  nlohmann::json g = tasks_grid;
  g["seeds"] = {0, -1};
  refused(g, "each of 'seeds' must be an integer in 0..");
  g["seeds"] = {1, 1};
  refused(g, "'seeds' lists 1 twice");
  g["seeds"] = {"0; touch x"};
  refused(g, "GRID.json field 'seeds' must be a number (an integer)");
  g["seeds"] = {0.5};
  refused(g, "GRID.json field 'seeds' must be a number (an integer)");
  g = tasks_grid;
  g["grid"]["--seed"] = {3, 4};
  refused(g, "'grid' has a --seed axis");
  g = tasks_grid;
  g["command"].push_back("--seed");
  g["command"].push_back("7");
  refused(g, "'command' has --seed");
  // A sweep directory with a line break would end the #SBATCH --output line.
  expect_usage_error("sweep plan " + write_grid(dir / "good.json", tasks_grid).string() +
                         " --out '" + (dir / "a\nb").string() + "'",
                     "control character 0x0a");
  EXPECT_FALSE(fs::exists(dir / "a\nb"));
  EXPECT_FALSE(fs::exists(marker));

  // Negative control: valid fields of every kind plan, each as its own #SBATCH line, and a
  // directory with a space is quoted where it is written.
  g = tasks_grid;
  g["slurm"] = {{"cpus_per_task", 2},
                {"mem", "500M"},
                {"time", "1-02:03:04"},
                {"partition", "debug"},
                {"account", "proj_1"},
                {"concurrency", 3},
                {"extra", {"--mail-type=END", "--exclusive"}}};
  const fs::path sweep = dir / "my sweep";
  const CliResult r = run_cli("sweep plan " + write_grid(dir / "good.json", g).string() +
                              " --out '" + sweep.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string sbatch = slurp(sweep / "sweep.sbatch");
  for (const std::string& line :
       {std::string("#SBATCH --array=0-3%3\n"), std::string("#SBATCH --cpus-per-task=2\n"),
        std::string("#SBATCH --mem=500M\n"), std::string("#SBATCH --time=1-02:03:04\n"),
        std::string("#SBATCH --partition=debug\n"), std::string("#SBATCH --account=proj_1\n"),
        std::string("#SBATCH --mail-type=END\n"), std::string("#SBATCH --exclusive\n"),
        "#SBATCH --output=\"" + (sweep / "logs" / "run-%a.log").string() + "\"\n",
        " sweep run '" + sweep.string() + "' --index"}) {
    EXPECT_NE(sbatch.find(line), std::string::npos) << line << "\n" << sbatch;
  }
  EXPECT_NE(slurp(sweep / "run-local.sh").find("sweep='" + sweep.string() + "'\n"),
            std::string::npos);
  // Every line of the script is a comment, a directive or the one exec line.
  std::istringstream lines_of(sbatch);
  int commands = 0;
  for (std::string line; std::getline(lines_of, line);) commands += line.rfind('#', 0) != 0;
  EXPECT_EQ(commands, 1) << sbatch;
}

// The grid, the sweep's own files and the runs' results are read as regular files within a
// limit: a result path that is a FIFO (collect blocked on it for ever) or a grid that is one
// gets one line, exit 1, at once.
TEST(Sweep, ReadsOnlyRegularFiles) {
  const fs::path dir = scratch("fifo");
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const nlohmann::json grid = {
      {"command", {"tasks", "--task", "number", "--count", "2", "--out", "{run}/x.jsonl"}},
      {"seeds", {0, 1}},
      {"result", fifo.string()}};
  const fs::path sweep = dir / "sweep";
  ASSERT_EQ(run_cli("sweep plan " + write_grid(dir / "grid.json", grid).string() + " --out " +
                    sweep.string())
                .code,
            0);
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(run_cli("sweep run " + sweep.string() + " --index " + std::to_string(i)).code, 0);
  const CliResult r = run_cli("sweep collect " + sweep.string() + " --metric x", 20);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(fifo.string()), std::string::npos) << r.err;
  const CliResult p = run_cli("sweep plan " + fifo.string() + " --out " + (dir / "x").string(), 20);
  EXPECT_EQ(p.code, 1) << p.err;
  EXPECT_EQ(lines(p.err), 1) << p.err;
  EXPECT_FALSE(fs::exists(dir / "x"));
}

// A one-run sweep of `tasks` writing 2 examples to OUT (a path below {run} or anywhere), planned
// into DIR/NAME: the sweep folder and the run's directory.
struct OneRun {
  fs::path sweep, run_dir;
};
OneRun plan_one_run(const fs::path& dir, const std::string& name, const std::string& out) {
  const nlohmann::json grid = {
      {"command", {"tasks", "--task", "number", "--count", "2", "--out", out}},
      {"seeds", {0}},
      {"result", out}};
  const fs::path sweep = dir / name;
  const CliResult r = run_cli("sweep plan " + write_grid(dir / (name + ".json"), grid).string() +
                              " --out " + sweep.string());
  EXPECT_EQ(r.code, 0) << r.err;
  const nlohmann::json manifest = nlohmann::json::parse(slurp(sweep / "manifest.json"));
  return {sweep, manifest["runs"][0]["dir"].get<std::string>()};
}

// A run's lock file that is a symbolic link is not followed: nothing is created through it.
TEST(Sweep, ALockThatIsALinkIsNotFollowed) {
  const fs::path dir = scratch("lock_link");
  fs::create_directories(dir);
  const auto [sweep, run_dir] = plan_one_run(dir, "sweep", "{run}/x.jsonl");
  fs::create_directories(run_dir);
  const fs::path outside = dir / "outside";
  fs::create_symlink(outside, run_dir / "lock");
  const CliResult r = run_cli("sweep run " + sweep.string() + " --index 0", 20);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("lock"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(outside));
  // Control: with the link gone the run goes through.
  fs::remove(run_dir / "lock");
  EXPECT_EQ(run_cli("sweep run " + sweep.string() + " --index 0", 20).code, 0);
}

// A run's command may write into folders below its run directory that do not exist yet: the
// sweep makes them (it owns the directory), although the sweep lies outside the working
// directory, where a command creates no missing folder; a folder outside the run it does not.
TEST(Sweep, RunMakesTheFoldersItsCommandNamesBelowTheRun) {
  const fs::path dir = scratch("owned");
  fs::create_directories(dir);
  const auto [sweep, run_dir] = plan_one_run(dir, "sweep", "{run}/tasks/deeper/x.jsonl");
  const CliResult r = run_cli("sweep run " + sweep.string() + " --index 0", 20);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(slurp(run_dir / "tasks" / "deeper" / "x.jsonl")), 2);

  const OneRun other = plan_one_run(dir, "other", (dir / "elsewhere" / "x.jsonl").string());
  const CliResult refused = run_cli("sweep run " + other.sweep.string() + " --index 0", 20);
  EXPECT_EQ(refused.code, 2) << refused.err;  // the command's own exit code
  EXPECT_NE(refused.err.find("does not exist; create it first"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "elsewhere"));
}

TEST(Sweep, LocalRunsFinishOnceAndCollectWithSeedIntervals) {
  const fs::path dir = scratch("local");
  const fs::path grid = write_grid(dir / "grid.json", tiny_grid());
  ASSERT_EQ(run_cli("sweep plan " + grid.string() + " --out " + (dir / "sweep").string()).code, 0);
  CliResult r = run_shell(kEnv + "timeout 300 bash " + (dir / "sweep" / "run-local.sh").string() +
                          " --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 runs: 4 done"), std::string::npos) << r.out;
  // Again: every run is skipped.
  r = run_shell(kEnv + "bash " + (dir / "sweep" / "run-local.sh").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(slurp(dir / "sweep" / "logs" / "run-2.log").find("done; skipped"), std::string::npos);
  // The status JSON names each run's values and directory, for scripts.
  ASSERT_EQ(run_cli("sweep status " + (dir / "sweep").string() + " --json " +
                    (dir / "status.json").string())
                .code,
            0);
  const auto status = nlohmann::json::parse(slurp(dir / "status.json"));
  ASSERT_EQ(status["states"].size(), 4u);
  EXPECT_EQ(status["states"][2]["state"], "done");
  EXPECT_EQ(status["states"][2]["values"]["--seed"], "0");
  EXPECT_EQ(fs::path(status["states"][2]["dir"].get<std::string>()),
            dir / "sweep" / "runs" / "0002");
  r = run_cli("sweep collect " + (dir / "sweep").string() +
              " --metric metrics.final.all --metric train_seconds --json " +
              (dir / "c.json").string() + " --csv " + (dir / "c.csv").string() + " --plot " +
              (dir / "c").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto c = nlohmann::json::parse(slurp(dir / "c.json"));
  EXPECT_EQ(c["collected"], 4);
  ASSERT_EQ(c["summary"].size(), 2u);  // one grid point per learning rate, over two seeds
  for (const auto& point : c["summary"]) {
    const auto& m = point["metrics.final.all"];
    EXPECT_EQ(m["n"], 2);
    EXPECT_LE(m["ci"][0].get<double>(), m["mean"].get<double>());
    EXPECT_GE(m["ci"][1].get<double>(), m["mean"].get<double>());
  }
  EXPECT_EQ(lines(slurp(dir / "c.csv")), 5);
  EXPECT_TRUE(fs::exists(dir / "c.svg") && fs::exists(dir / "c.png"));
  expect_usage_error("sweep collect " + (dir / "sweep").string() + " --metric no.such", "no.such");
  // --redraw draws the same figure from the JSON alone (the scripts differ in their output name).
  r = run_cli("sweep collect --redraw " + (dir / "c.json").string() + " --plot " +
              (dir / "again").string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::string script = slurp(dir / "again.gp");
  for (std::size_t at; (at = script.find("again.")) != std::string::npos;)
    script.replace(at, 6, "c.");
  EXPECT_EQ(script, slurp(dir / "c.gp"));
  expect_usage_error("sweep collect --redraw " + (dir / "c.json").string(), "--plot");
  expect_usage_error("sweep collect --redraw " + (dir / "c.json").string() + " --plot " +
                         (dir / "x").string() + " --metric train_seconds",
                     "nothing else");
  expect_usage_error("sweep collect --redraw " + (dir / "status.json").string() + " --plot " +
                         (dir / "x").string(),
                     "is it a sweep collect --json result?");
  EXPECT_FALSE(fs::exists(dir / "x.gp"));
}

// A real Slurm: submit, kill one array task mid-run, resubmit.
TEST(Sweep, SlurmArrayKilledTaskResumesAndMatchesTheLocalRun) {
  const fs::path dir = scratch("slurm");
  const std::string slurm_dir = (dir / "slurm").string();
  const int port = 40000 + ::getpid() % 10000;
  const std::string ports = "POSBIAS_SLURMCTLD_PORT=" + std::to_string(port) +
                            " POSBIAS_SLURMD_PORT=" + std::to_string(port + 1) + " ";
  const std::string script = std::string(POSBIAS_SOURCE_DIR) + "/scripts/local-slurm.sh";
  CliResult r = run_shell(ports + "timeout 120 " + script + " start " + slurm_dir);
  ASSERT_EQ(r.code, 0) << r.err;
  struct Stop {
    std::string command;
    ~Stop() { run_shell(command); }
  } stop{script + " stop " + slurm_dir};
  const std::string slurm = "SLURM_CONF=" + slurm_dir + "/slurm.conf ";

  const fs::path grid = write_grid(dir / "grid.json", tiny_grid());
  const fs::path sweep = dir / "sweep", local = dir / "local";
  ASSERT_EQ(run_cli("sweep plan " + grid.string() + " --out " + sweep.string()).code, 0);
  ASSERT_EQ(run_cli("sweep plan " + grid.string() + " --out " + local.string()).code, 0);
  r = run_shell(slurm + kEnv + "sbatch --parsable " + (sweep / "sweep.sbatch").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string job = r.out.substr(0, r.out.find_first_of(";\n"));

  // Kill array task 1 once it has written a checkpoint past step 0.
  const fs::path run1 = sweep / "runs" / "0001";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!fs::exists(run1 / "train" / "checkpoints" / "step_00000050.safetensors") &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(fs::exists(run1 / "train" / "checkpoints" / "step_00000050.safetensors"))
      << slurp(sweep / "logs" / "run-1.log");
  ASSERT_EQ(run_shell(slurm + "scancel --signal=KILL --full " + job + "_1").code, 0);
  auto wait_for_job = [&](const std::string& id) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(240);
    while (std::chrono::steady_clock::now() < end) {
      if (run_shell(slurm + "squeue -h -j " + id).out.empty()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return false;
  };
  ASSERT_TRUE(wait_for_job(job));
  r = run_cli("sweep status " + sweep.string() + " --json " + (dir / "s1.json").string());
  EXPECT_NE(r.out.find("3 done, 1 started"), std::string::npos) << r.out;
  ASSERT_FALSE(fs::exists(run1 / "done.json"));

  // Resubmit the whole array: the done runs are skipped, run 1 resumes.
  r = run_shell(slurm + kEnv + "sbatch --parsable " + (sweep / "sweep.sbatch").string());
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(wait_for_job(r.out.substr(0, r.out.find_first_of(";\n"))));
  r = run_cli("sweep status " + sweep.string());
  EXPECT_NE(r.out.find("4 runs: 4 done"), std::string::npos) << r.out;
  const auto started = nlohmann::json::parse(slurp(run1 / "started.json"));
  ASSERT_EQ(started["attempts"].size(), 2u);
  EXPECT_TRUE(started["attempts"][1]["resumed"].get<bool>());
  for (const char* other : {"0000", "0002", "0003"}) {
    EXPECT_EQ(
        nlohmann::json::parse(slurp(sweep / "runs" / other / "started.json"))["attempts"].size(),
        1u)
        << other << " ran more than once";
  }
  EXPECT_NE(slurp(sweep / "logs" / "run-0.log").find("done; skipped"), std::string::npos);

  // The same grid run locally gives the same numbers, the resumed run included.
  r = run_shell(kEnv + "timeout 300 bash " + (local / "run-local.sh").string() + " --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* run : {"0000", "0001", "0002", "0003"}) {
    const std::vector<double> a = losses(sweep / "runs" / run), b = losses(local / "runs" / run);
    ASSERT_EQ(a.size(), 9u) << run;
    EXPECT_EQ(a, b) << run;
  }
}

}  // namespace
