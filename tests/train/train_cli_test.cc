// `posbias train` and `posbias eval` as a user meets them: a tiny model learns 1-hop Letter,
// a run killed with SIGKILL at random moments (mid-checkpoint included) resumes to the same
// metrics as an uninterrupted run, corrupt and foreign checkpoints are refused, and bad input
// gets one line with exit 1 or 2.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "../cli_run.h"
#include "kill_while_training.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("posbias_train_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p;
}

const std::string kTiny =
    "--task letter --layers 2 --d-model 64 --mlp 128 --rotary-dim 8 --eval-per-hop 64 ";

TEST(TrainCli, TinyModelLearnsOneHopLetterWithinAMinute) {
  const fs::path run = scratch("learn");
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r = run_cli(
      "train --task letter --layers 2 --eval-per-hop 64 --hops 1 --steps 150 "
      "--warmup 30 --eval-every 50 --checkpoint-every 50 --out " +
          run.string(),
      300);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = metrics_without_timing(run);
  ASSERT_EQ(rows.size(), 4u);                              // steps 0, 50, 100, 150
  EXPECT_LT(rows.front()["acc"]["1"].get<double>(), 0.2);  // chance is 1/80 among targets
  EXPECT_GE(rows.back()["acc"]["1"].get<double>(), 0.95);
  EXPECT_LT(seconds, 60.0) << "a CI-sized training run should take well under a minute";
  for (const char* f :
       {"train.json", "summary.json", "training_accuracy.svg", "training_loss.png",
        "model.safetensors", "config.json", "checkpoints/step_00000150.safetensors"}) {
    EXPECT_TRUE(fs::exists(run / f)) << f;
  }
  // eval on the trained run: JSON accuracy[length][hop] and the decoy control.
  const CliResult e = run_cli("eval --run " + run.string() + " --lengths 17,40 --count 50 --json " +
                              (run / "eval.json").string() + " --plot " + (run / "eval").string());
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(run / "eval.json"));
  EXPECT_GE(j["accuracy"]["17"]["1"].get<double>(), 0.9);
  EXPECT_TRUE(j["accuracy"]["40"].contains("all"));
  EXPECT_TRUE(j["controls"]["decoy"]["decoy_rate"].contains("40"));
  EXPECT_TRUE(fs::exists(run / "eval.png"));
  // Memory is planned before anything is allocated: one line naming the bytes, exit 2. Dense
  // attention at 100k tokens does not fit (auto would take the blockwise path), and nothing
  // fits a 1 MB budget.
  expect_usage_error("eval --run " + run.string() + " --lengths 17,100000 --attention dense",
                     "use --attention blockwise");
  expect_usage_error("eval --run " + run.string() + " --lengths 17 --memory-budget 0.001",
                     "the memory budget is 1.0 MB (--memory-budget)");
}

TEST(TrainCli, KilledRunsResumeToTheUninterruptedMetrics) {
  const std::string config = kTiny + "--steps 60 --warmup 10 --eval-every 5 --checkpoint-every 5 ";
  const fs::path whole = scratch("whole"), killed = scratch("killed");
  ASSERT_EQ(run_cli("train " + config + "--out " + whole.string()).code, 0);

  const int kills = kill_while_training(
      std::string(POSBIAS_BIN) + " train " + config + "--out " + killed.string(),
      std::string(POSBIAS_BIN) + " train --resume " + killed.string(), killed);
  EXPECT_GE(kills, 1);
  const CliResult r = run_cli("train --resume " + killed.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = metrics_without_timing(whole), b = metrics_without_timing(killed);
  ASSERT_EQ(a.size(), 13u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "metrics line " << i;
  EXPECT_EQ(slurp(whole / "model.safetensors"), slurp(killed / "model.safetensors"));
}

TEST(TrainCli, CorruptAndForeignCheckpointsAreRefused) {
  const fs::path run = scratch("corrupt");
  ASSERT_EQ(run_cli("train " + kTiny +
                    "--steps 10 --warmup 2 --eval-every 5 --checkpoint-every 5 "
                    "--out " +
                    run.string())
                .code,
            0);
  const fs::path last = run / "checkpoints" / "step_00000010.safetensors";
  std::string bytes = slurp(last);
  {
    std::ofstream out(last, std::ios::binary | std::ios::trunc);
    out << bytes.substr(0, bytes.size() / 2);  // truncated
  }
  expect_error("train --resume " + run.string(), "step_00000010.safetensors", 1);
  expect_error("eval --run " + run.string(), "step_00000010.safetensors", 1);
  {
    std::ofstream out(last, std::ios::binary | std::ios::trunc);
    out << bytes.substr(0, 8) << std::string(bytes.size() - 8, '\x7f');  // garbage header
  }
  expect_error("eval --run " + run.string(), "step_00000010.safetensors", 1);
  // A valid safetensors file that is not ours.
  fs::copy_file(fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/models/gptj/model.safetensors", last,
                fs::copy_options::overwrite_existing);
  expect_error("eval --run " + run.string(), "not a posbias", 1);
}

TEST(TrainCli, BadInputGetsOneLine) {
  const fs::path run = scratch("bad");
  expect_usage_error("train --task words --out " + run.string(), "unknown task");
  expect_usage_error("train --task number --hops 0 --out " + run.string(), "hops");
  expect_usage_error("train --task number --hops 5 --out " + run.string(), "hops");
  expect_usage_error("train --task letter --length 10 --hops 4 --out " + run.string(), "too short");
  expect_usage_error("train --task letter --lr nan --out " + run.string(), "lr");
  expect_usage_error("train --task letter --batch -3 --out " + run.string(), "batch");
  expect_usage_error("train --task letter", "--out");
  expect_usage_error("train --task letter --seed -1 --out " + run.string(), "seed");
  expect_usage_error("train --resume /nonexistent/run", "does not exist");
  expect_error("eval --run /nonexistent/run", "does not exist", 1);
  expect_usage_error("eval --run /tmp --count 0", "--count");
  expect_usage_error("eval --run /tmp --lengths 17,1", "--lengths");
  expect_usage_error("tasks --task letter --count -1", "--count");
  expect_usage_error("tasks --task number --hops 3 --length 10", "too short");
  expect_usage_error("tasks --task letters", "unknown task");
  expect_error("tasks check /nonexistent.jsonl", "cannot open", 1);
  const fs::path cfg = scratch("bad.json");
  { std::ofstream(cfg) << R"({"task": "letter", "learning_rate": 0.1})"; }
  expect_usage_error("train --config " + cfg.string() + " --out " + run.string(), "learning_rate");
}

TEST(TasksCli, WritesCheckableJsonlAndTokenIds) {
  const fs::path dir = scratch("tasks");
  fs::create_directories(dir);
  const CliResult r =
      run_cli("tasks --task number --count 64 --seed 3 -o " + (dir / "n.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const CliResult c = run_cli("tasks check " + (dir / "n.jsonl").string());
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("all 64 examples are correct"), std::string::npos) << c.out;
  // One wrong answer is found and reported with its line.
  std::string text = slurp(dir / "n.jsonl");
  const auto pos = text.find("\"answer\":\"");
  text.replace(pos + 10, 1, text[pos + 10] == 'z' ? "y" : "z");
  std::ofstream(dir / "bad.jsonl") << text;
  const CliResult bad = run_cli("tasks check " + (dir / "bad.jsonl").string());
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("line 1:"), std::string::npos) << bad.err;
  const CliResult ids = run_cli("tasks --task letter --count 3 --format tokens");
  ASSERT_EQ(ids.code, 0);
  EXPECT_EQ(lines(ids.out), 3);
  EXPECT_EQ(ids.out.find_first_not_of("0123456789 \n"), std::string::npos);
}

}  // namespace
