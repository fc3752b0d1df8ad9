// A run's identity and the integrity of what a resume reads, as a user meets them: a checkpoint
// of another run (another seed) is refused by every reader of the run, the run's
// model.safetensors carries a checksum and the run's config that --weights readers check, an
// edited train.json or a damaged metrics.jsonl refuses the resume in one line and changes no
// file, a run whose checkpoints are all damaged says that it starts again, and a crossing step
// that was never reached is printed as such, not as "nan".
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "kill_while_training.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_run_identity", name); }

const std::string kTiny =
    "train --task letter --layers 1 --d-model 32 --mlp 64 --steps 20 --eval-every 5 "
    "--checkpoint-every 10 --warmup 2 --eval-per-hop 16 --batch 16 --dropout 0 ";

// Two finished runs that differ only in their seed, trained once for every test.
const fs::path& run_of_seed(int seed) {
  const std::string s = std::to_string(seed);
  return trained_once("posbias_run_identity", "seed" + s, kTiny + "--seed " + s);
}

fs::path copy_of(const fs::path& run, const std::string& name) {
  const fs::path to = scratch(name);
  fs::copy(run, to, fs::copy_options::recursive);
  return to;
}

void write_raw(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Every file under `dir` (relative path → bytes), to show a refusal changed nothing.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = slurp(e.path());
  return files;
}

fs::path last_checkpoint(const fs::path& run) {
  return run / "checkpoints" / "step_00000020.safetensors";
}

// `serve --run RUN` loads its model and listens (it writes the port file), then is stopped.
bool serve_starts(const fs::path& run) {
  const fs::path port = scratch("port_" + run.filename().string());
  const CliResult r = run_shell(
      std::string(POSBIAS_BIN) + " serve --run " + run.string() + " --port 0 --port-file " +
      port.string() + " 2>/dev/null & pid=$!; i=0; while [ ! -s " + port.string() +
      " ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i+1)); done; "
      "ok=1; test -s " +
      port.string() + " && ok=0; kill $pid 2>/dev/null; wait $pid; exit $ok");
  return r.code == 0;
}

TEST(RunIdentity, EveryReaderRefusesACheckpointOfAnotherRun) {
  const fs::path& own = run_of_seed(0);
  // Negative control: the run's own checkpoints are read by every reader.
  EXPECT_EQ(run_cli("eval --run " + own.string() + " --lengths 17 --count 16").code, 0);
  EXPECT_EQ(run_cli("heads --run " + own.string() + " --samples 4").code, 0);
  EXPECT_EQ(run_cli("discrepancy --run " + own.string() + " --lengths 17 --count 8").code, 0);
  EXPECT_TRUE(serve_starts(own));

  // Seed 1's step-20 checkpoint in a copy of the seed-0 run: intact, but not this run's.
  const fs::path mixed = copy_of(own, "mixed");
  fs::copy_file(last_checkpoint(run_of_seed(1)), last_checkpoint(mixed),
                fs::copy_options::overwrite_existing);
  const std::string why = "does not belong to run " + mixed.string() + ": seed is 1 in it but 0 in";
  expect_error("eval --run " + mixed.string() + " --lengths 17 --count 16", why, 1);
  expect_error("heads --run " + mixed.string() + " --samples 4 --checkpoints last", why, 1);
  expect_error("discrepancy --run " + mixed.string() + " --lengths 17 --count 8", why, 1);
  expect_error("serve --run " + mixed.string() + " --port 0", why, 1);
  // Resuming sets it aside (it is not this run's) and goes on from the one before.
  const CliResult r = run_cli("train --resume " + mixed.string(), 300);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("resuming " + mixed.string() + " at step 10"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(mixed / "model.safetensors"), slurp(own / "model.safetensors"));
}

TEST(RunIdentity, ModelWeightsCarryAChecksumAndTheRunsConfig) {
  const fs::path& own = run_of_seed(0);
  const std::string weights = own.string() + "/model.safetensors";
  auto heads = [](const fs::path& run) {
    return "heads --config " + (run / "config.json").string() + " --weights " +
           (run / "model.safetensors").string() + " --length 17 --samples 4";
  };
  // The metadata: the file's SHA-256 and the run's training config.
  const std::string bytes = slurp(weights);
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  const nlohmann::json meta = nlohmann::json::parse(bytes.substr(8, n))["__metadata__"];
  EXPECT_EQ(meta.value("sha256", "").size(), 64u) << meta.dump();
  ASSERT_TRUE(meta.contains("posbias_train_config")) << meta.dump();
  EXPECT_EQ(nlohmann::json::parse(meta["posbias_train_config"].get<std::string>()),
            nlohmann::json::parse(slurp(own / "train.json"))["config"]);
  // Negative control: the run's own weights, and a copy outside any run folder, are read.
  EXPECT_EQ(run_cli(heads(own)).code, 0);
  const fs::path outside = scratch("outside");
  fs::create_directories(outside);
  fs::copy_file(own / "config.json", outside / "config.json");
  fs::copy_file(weights, outside / "model.safetensors");
  EXPECT_EQ(run_cli(heads(outside)).code, 0);

  // One flipped bit in the tensor data: refused naming the file, in the run and outside it.
  std::string flipped = bytes;
  flipped[flipped.size() - 100] ^= 0x01;
  const fs::path damaged = copy_of(own, "damaged_weights");
  write_raw(damaged / "model.safetensors", flipped);
  expect_error(heads(damaged), (damaged / "model.safetensors").string(), 1);
  write_raw(outside / "model.safetensors", flipped);
  expect_error(heads(outside), (outside / "model.safetensors").string(), 1);
  // Seed 1's weights in the seed-0 run: intact, but not this run's.
  const fs::path foreign = copy_of(own, "foreign_weights");
  fs::copy_file(run_of_seed(1) / "model.safetensors", foreign / "model.safetensors",
                fs::copy_options::overwrite_existing);
  expect_error(heads(foreign),
               "does not belong to run " + foreign.string() + ": seed is 1 in it but 0 in", 1);
}

TEST(RunIdentity, AnEditedTrainJsonRefusesTheResumeAndChangesNothing) {
  const fs::path run = copy_of(run_of_seed(0), "edited");
  fs::remove(last_checkpoint(run));  // PARTIAL: killed after its step-10 checkpoint
  const std::string original = slurp(run / "train.json");
  std::string edited = original;
  const std::size_t seed = edited.find("\"seed\": 0");
  ASSERT_NE(seed, std::string::npos);
  edited.replace(seed, 9, "\"seed\": 5");
  write_raw(run / "train.json", edited);
  const auto before = snapshot(run);
  expect_error("train --resume " + run.string(),
               (run / "train.json").string() +
                   " does not match the run's checkpoints: seed is 5 in " +
                   (run / "train.json").string() + " but 0 in step_00000010.safetensors",
               1);
  EXPECT_EQ(snapshot(run), before) << "a refused resume changed a file";
  // Negative control: train.json restored, the run resumes from step 10 to the same end.
  write_raw(run / "train.json", original);
  const CliResult r = run_cli("train --resume " + run.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming " + run.string() + " at step 10"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(run / "model.safetensors"), slurp(run_of_seed(0) / "model.safetensors"));
}

TEST(RunIdentity, ADamagedMetricsFileRefusesTheResume) {
  const fs::path& own = run_of_seed(0);
  const std::string metrics = slurp(own / "metrics.jsonl");
  std::vector<std::string> rows;
  for (std::size_t at = 0, end; (end = metrics.find('\n', at)) != std::string::npos; at = end + 1)
    rows.push_back(metrics.substr(at, end + 1 - at));
  ASSERT_EQ(rows.size(), 5u);  // steps 0, 5, 10, 15, 20
  auto without = [&](std::size_t i, const std::string& instead) {
    std::string s;
    for (std::size_t k = 0; k < rows.size(); ++k) s += k == i ? instead : rows[k];
    return s;
  };
  const std::pair<std::string, std::string> cases[] = {
      {without(2, rows[2].substr(0, rows[2].size() / 2) + "\n"), "line 3 is not a metrics row"},
      {without(1, ""), "line 2 has step 10, the row for step 5 was expected"},
      {without(3, "\x7f\x7f garbage\n"), "line 4 is not a metrics row"},
      {rows[0] + rows[1], "no row for step 10"}};
  for (const auto& [bytes, why] : cases) {
    SCOPED_TRACE(why);
    const fs::path run = copy_of(own, "metrics");
    fs::remove(last_checkpoint(run));  // resumes at step 10
    write_raw(run / "metrics.jsonl", bytes);
    const auto before = snapshot(run);
    expect_error("train --resume " + run.string(),
                 (run / "metrics.jsonl").string() + " is damaged (" + why + ")", 1);
    EXPECT_EQ(snapshot(run), before) << "a refused resume changed a file";
  }
  const fs::path deleted = copy_of(own, "metrics_deleted");
  fs::remove(deleted / "metrics.jsonl");
  expect_error("train --resume " + deleted.string(), "metrics.jsonl is damaged (missing)", 1);

  // Negative control: the rows after the resumed checkpoint (15 and 20) are not damage: they
  // are logged again, and the run ends with the uninterrupted run's metrics and weights.
  const fs::path partial = copy_of(own, "metrics_partial");
  fs::remove(last_checkpoint(partial));
  const CliResult r = run_cli("train --resume " + partial.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(metrics_without_timing(partial), metrics_without_timing(own));
  EXPECT_EQ(slurp(partial / "model.safetensors"), slurp(own / "model.safetensors"));
}

TEST(RunIdentity, ARunWhoseCheckpointsAreAllDamagedSaysItStartsAgain) {
  const fs::path run = copy_of(run_of_seed(0), "all_damaged");
  // Negative control first: one damaged checkpoint, the run resumes from the one before.
  std::string last = slurp(last_checkpoint(run));
  last[last.size() - 100] ^= 0x01;
  write_raw(last_checkpoint(run), last);
  CliResult r = run_cli("train --resume " + run.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("starts again"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at step 10"), std::string::npos) << r.err;
  int count = 0;
  for (const auto& e : fs::directory_iterator(run / "checkpoints")) {
    if (e.path().extension() != ".safetensors") continue;
    std::string bytes = slurp(e.path());
    bytes[bytes.size() - 100] ^= 0x01;
    write_raw(e.path(), bytes);
    ++count;
  }
  ASSERT_GE(count, 2);
  r = run_cli("train --resume " + run.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("none of the " + std::to_string(count) + " checkpoints of " + run.string() +
                       " is intact: the run starts again from step 0"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(slurp(run / "model.safetensors"), slurp(run_of_seed(0) / "model.safetensors"));
}

TEST(RunIdentity, ACrossingNeverReachedIsSaidSoNotNan) {
  // Two seeds' summaries with every crossing of 0.9 set to never (null), as runs that never
  // learn write them, and with crossings at steps 10 and 20.
  const fs::path dir = scratch("never");
  fs::create_directories(dir);
  std::string never_args, reached_args;
  for (int seed : {0, 1}) {
    nlohmann::json s = nlohmann::json::parse(slurp(run_of_seed(seed) / "summary.json"));
    for (const char* kind : {"never", "reached"}) {
      for (auto& [hop, step] : s["metrics"]["crossing_0.9"].items())
        step = kind[0] == 'n' ? nlohmann::json() : nlohmann::json(10 + 10 * seed);
      const fs::path file = dir / (kind + std::to_string(seed) + ".json");
      std::ofstream(file) << s.dump();
      (kind[0] == 'n' ? never_args : reached_args) += " " + file.string();
    }
  }
  const CliResult r = run_cli("seeds --summary" + never_args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("NaN"), std::string::npos) << r.out;
  EXPECT_TRUE(nlohmann::json::parse(r.out)["training"]["crossing_0.9"]["all"]["mean"].is_null());
  // The summary a terminal gets (script(1) gives the command one).
  const auto on_terminal = [](const std::string& args) {
    return posbias_test::run_shell("script -qec '" + std::string(POSBIAS_BIN) + " " + args +
                                   "' /dev/null");
  };
  const CliResult tty = on_terminal("seeds --summary" + never_args);
  ASSERT_EQ(tty.code, 0) << tty.out;
  EXPECT_NE(tty.out.find("all hops never reached 0.9 (0 of 2 seeds)"), std::string::npos)
      << tty.out;
  EXPECT_EQ(tty.out.find("nan"), std::string::npos) << tty.out;
  // Negative control: a crossing that was reached is printed as a step.
  const CliResult reached = on_terminal("seeds --summary" + reached_args);
  ASSERT_EQ(reached.code, 0) << reached.out;
  EXPECT_NE(reached.out.find("all hops reach 0.9 at step 15 ["), std::string::npos) << reached.out;
}

// A run killed just after its step-0 checkpoint resumes at step 0 with step 0's row already in
// metrics.jsonl: it must not log step 0 again (a second row 0 made the next resume refuse the
// file as damaged), and it ends with the uninterrupted run's metrics and weights.
TEST(RunIdentity, AResumeFromTheStepZeroCheckpointLogsStepZeroOnce) {
  const fs::path own = scratch("logged");  // --log-checkpoints adds a checkpoint at step 0
  const CliResult whole = run_cli(kTiny + "--log-checkpoints 2 --out " + own.string(), 300);
  ASSERT_EQ(whole.code, 0) << whole.err;
  const fs::path run = copy_of(own, "from_step0");
  const fs::path step0 = run / "checkpoints" / "step_00000000.safetensors";
  ASSERT_TRUE(fs::exists(step0));
  for (const auto& e : fs::directory_iterator(run / "checkpoints"))
    if (e.path() != step0) fs::remove(e.path());
  fs::remove(run / "model.safetensors");
  const std::string metrics = slurp(own / "metrics.jsonl");
  write_raw(run / "metrics.jsonl", metrics.substr(0, metrics.find('\n') + 1));  // step 0 only
  const CliResult r = run_cli("train --resume " + run.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming " + run.string() + " at step 0"), std::string::npos) << r.err;
  EXPECT_EQ(metrics_without_timing(run), metrics_without_timing(own));
  EXPECT_EQ(slurp(run / "model.safetensors"), slurp(own / "model.safetensors"));
}

}  // namespace
