// Data-parallel training on c10d/Gloo over loopback, as users run it: `posbias launch --nproc 2
// -- train` must equal one process with the whole batch (the ranks' slices are the global
// batch, and their averaged gradients its gradient), a run resumes on another number of ranks,
// and ranks started wrongly, an unreachable master and a rank killed mid-run each end in one
// line and a bounded time.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "../cli_run.h"
#include "../process.h"
#include "posbias/hf/safetensors.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_dp", name); }

// A fresh folder that exists, for outputs inside it (it is outside the working directory, where
// posbias creates no missing folder).
fs::path folder(const std::string& name) {
  const fs::path dir = scratch(name);
  fs::create_directories(dir);
  return dir;
}

// A tiny Number model; dropout off, so the only difference between world sizes is rounding.
std::string tiny(int batch, int steps = 20) {
  return "--task number --layers 2 --d-model 32 --mlp 64 --rotary-dim 8 --steps " +
         std::to_string(steps) + " --warmup 5 --batch " + std::to_string(batch) +
         " --dropout 0 --eval-every 10 --checkpoint-every 10 --eval-per-hop 16 ";
}

// ‖a − b‖ / ‖a‖ over every parameter of two final models, and the worst tensor's
// max|a − b| / max|a|.
struct Difference {
  double norm_relative = 0, worst_tensor = 0;
  int tensors = 0;
};
Difference difference(const fs::path& a_file, const fs::path& b_file) {
  const auto a = posbias::SafetensorsFile::open(a_file), b = posbias::SafetensorsFile::open(b_file);
  double num = 0, den = 0;
  Difference d;
  for (const auto& [name, ta] : a.tensors()) {
    const posbias::TensorView& tb = b.get(name);
    EXPECT_EQ(ta.shape, tb.shape) << name;
    double diff = 0, size = 0;
    for (std::int64_t i = 0; i < ta.numel(); ++i) {
      float x = 0, y = 0;
      std::memcpy(&x, ta.data + 4 * i, 4);
      std::memcpy(&y, tb.data + 4 * i, 4);
      num += (double(x) - y) * (double(x) - y);
      den += double(x) * x;
      diff = std::max(diff, std::abs(double(x) - y));
      size = std::max(size, std::abs(double(x)));
    }
    d.worst_tensor = std::max(d.worst_tensor, diff / size);
    ++d.tensors;
  }
  d.norm_relative = std::sqrt(num / den);
  return d;
}

TEST(DataParallel, TwoRanksOfBatch32EqualOneRankOfBatch64) {
  const fs::path one = scratch("one"), two = scratch("two"), half = scratch("half");
  CliResult r = run_cli("train " + tiny(64) + "--out " + one.string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("launch --nproc 2 -- train " + tiny(64) + "--out " + two.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Difference d = difference(one / "model.safetensors", two / "model.safetensors");
  EXPECT_GT(d.tensors, 10);
  EXPECT_LT(d.norm_relative, 1e-5) << "worst tensor " << d.worst_tensor;
  std::printf("2 ranks × 32 vs 1 × 64 after 20 steps: ‖Δ‖/‖θ‖ = %.3g, worst tensor %.3g\n",
              d.norm_relative, d.worst_tensor);
  // The control that could fail: one rank of batch 32 trains on half the data and ends far away.
  r = run_cli("train " + tiny(32) + "--out " + half.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(difference(one / "model.safetensors", half / "model.safetensors").norm_relative, 1e-2);

  const nlohmann::json summary = nlohmann::json::parse(slurp(two / "summary.json"));
  const nlohmann::json& dp = summary.at("data_parallel");
  EXPECT_EQ(dp.at("world_size"), 2);
  EXPECT_GE(dp.at("buckets"), 1);
  // Every step after the first (which counts the accumulations) starts its buckets during the
  // backward.
  EXPECT_EQ(dp.at("buckets_started_in_backward").get<int>(), 19 * dp.at("buckets").get<int>());
  // Rank 0 alone writes: one metrics line per evaluation.
  EXPECT_EQ(lines(slurp(two / "metrics.jsonl")), 3);
}

TEST(DataParallel, TextRunsTooWithTheTokenizerRankZeroTrained) {
  const fs::path one = scratch("text_one"), two = scratch("text_two");
  const std::string text =
      "train --task text --layers 2 --d-model 32 --heads 2 --mlp 64 --length 32 --steps 20 "
      "--warmup 5 --batch 8 --vocab-size 512 --eval-every 10 --eval-windows 4 "
      "--checkpoint-every 10 --out ";
  CliResult r = run_cli(text + one.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("launch --nproc 2 -- " + text + two.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(difference(one / "model.safetensors", two / "model.safetensors").norm_relative, 1e-5);
}

TEST(DataParallel, ResumesOnAnotherNumberOfRanks) {
  // Two ranks run to step 20; the state after step 10 is then what a kill would leave (the
  // step-10 checkpoint), and one rank finishes it.
  const fs::path one = scratch("resume_one"), two = scratch("resume_two");
  ASSERT_EQ(run_cli("train " + tiny(64) + "--out " + one.string()).code, 0);
  CliResult r = run_cli("launch --nproc 2 -- train " + tiny(64) + "--out " + two.string());
  ASSERT_EQ(r.code, 0) << r.err;
  fs::remove(two / "checkpoints" / "step_00000020.safetensors");
  fs::remove(two / "model.safetensors");
  fs::remove(two / "summary.json");
  r = run_cli("train --resume " + two.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming"), std::string::npos) << r.err;
  EXPECT_LT(difference(one / "model.safetensors", two / "model.safetensors").norm_relative, 1e-5);
  // And back to two ranks from one rank's checkpoint.
  fs::remove(two / "checkpoints" / "step_00000020.safetensors");
  r = run_cli("launch --nproc 2 -- train --resume " + two.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(difference(one / "model.safetensors", two / "model.safetensors").norm_relative, 1e-5);
}

// Two ranks started by hand, each with its own environment, stderr to e0/e1.
CliResult two_ranks(const std::string& env0, const std::string& env1, const std::string& args,
                    const fs::path& dir) {
  const std::string bin = POSBIAS_BIN;
  return run_shell("bash -c '" + env0 + " timeout 60 " + bin + " " + args + " 2>" +
                   (dir / "e0").string() + " & p0=$!; " + env1 + " timeout 60 " + bin + " " + args +
                   " 2>" + (dir / "e1").string() + "; c1=$?; wait $p0; c0=$?; echo $c0 $c1'");
}

TEST(DataParallel, RanksStartedWronglyEachGetOneLine) {
  const fs::path dir = folder("wrong");
  fs::create_directories(dir);
  const std::string port =
      "MASTER_ADDR=127.0.0.1 MASTER_PORT=" + std::to_string(29700 + ::getpid() % 200);
  const std::string args =
      "train " + tiny(60) + "--rank-timeout 10 --out " + (dir / "run").string();
  // World sizes that do not match (the batch splits over both): both ranks refuse (exit 2)
  // before anything is written.
  CliResult r = two_ranks(port + " WORLD_SIZE=2 RANK=0", port + " WORLD_SIZE=3 RANK=1", args, dir);
  EXPECT_EQ(r.out, "2 2\n") << slurp(dir / "e0") << slurp(dir / "e1");
  for (const char* e : {"e0", "e1"}) {
    EXPECT_EQ(lines(slurp(dir / e)), 1) << slurp(dir / e);
    EXPECT_NE(slurp(dir / e).find("WORLD_SIZE"), std::string::npos) << slurp(dir / e);
  }
  EXPECT_FALSE(fs::exists(dir / "run"));
  // Ranks running different jobs (another seed): refused by both.
  r = two_ranks(port + " WORLD_SIZE=2 RANK=0", port + " WORLD_SIZE=2 RANK=1", args + " --seed 1",
                dir);
  EXPECT_EQ(r.out, "0 0\n") << slurp(dir / "e0") << slurp(dir / "e1");  // the same job trains
  fs::remove_all(dir / "run");
  const std::string bin = POSBIAS_BIN;
  r = run_shell("bash -c '" + port + " WORLD_SIZE=2 RANK=0 timeout 60 " + bin + " " + args +
                " --seed 1 2>" + (dir / "e0").string() + " & p0=$!; " + port +
                " WORLD_SIZE=2 RANK=1 timeout 60 " + bin + " " + args + " --seed 2 2>" +
                (dir / "e1").string() + "; c1=$?; wait $p0; echo $? $c1'");
  EXPECT_EQ(r.out, "2 2\n") << slurp(dir / "e0") << slurp(dir / "e1");
  EXPECT_NE(slurp(dir / "e1").find("different jobs"), std::string::npos) << slurp(dir / "e1");
  // A third process claiming RANK 1 once the two proper ranks train (rank 0 has logged step 0;
  // a long run, stopped by SIGTERM after): refused, and the two were still training.
  fs::remove_all(dir / "run");
  const std::string longer =
      "train " + tiny(64, 100000) + "--rank-timeout 10 --out " + (dir / "run").string();
  r = run_shell(
      "bash -c '" + port + " WORLD_SIZE=2 RANK=0 timeout 120 " + bin + " " + longer + " 2>" +
      (dir / "e0").string() + " & p0=$!; " + port + " WORLD_SIZE=2 RANK=1 timeout 120 " + bin +
      " " + longer + " 2>/dev/null & p1=$!; for i in $(seq 600); do [ -s " +
      (dir / "run" / "metrics.jsonl").string() + " ] && break; sleep 0.1; done; " + port +
      " WORLD_SIZE=2 RANK=1 timeout 60 " + bin + " " + longer + " 2>" + (dir / "e1").string() +
      "; c=$?; kill -0 $p0 && kill -0 $p1 && echo running; kill $p0 $p1; wait; echo $c'");
  EXPECT_EQ(r.out, "running\n2\n") << slurp(dir / "e0") << slurp(dir / "e1");
  EXPECT_NE(slurp(dir / "e1").find("claim RANK 1"), std::string::npos) << slurp(dir / "e1");
  EXPECT_EQ(slurp(dir / "e0").find("error"), std::string::npos) << slurp(dir / "e0");

  // Usage errors of one process.
  expect_usage_error("launch --nproc 2 -- train " + tiny(63) + "--out " + (dir / "odd").string(),
                     "--batch 63 does not split over WORLD_SIZE 2");
  expect_usage_error("launch --nproc 0 -- train", "--nproc");
  expect_usage_error("launch --nproc 2", "command");
  expect_usage_error("launch --nnodes 2 --node-rank 1 -- train", "--master-addr");
  const CliResult bad = run_shell("WORLD_SIZE=2 RANK=5 MASTER_ADDR=127.0.0.1 MASTER_PORT=1 " +
                                  std::string(POSBIAS_BIN) + " train " + tiny(64) + "--out " +
                                  (dir / "bad").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("RANK is 5"), std::string::npos) << bad.err;
}

TEST(DataParallel, AnUnreachableMasterEndsInOneLineWithinTheTimeout) {
  const fs::path dir = folder("unreachable");
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r =
      run_shell("WORLD_SIZE=2 RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=9 timeout 60 " +
                std::string(POSBIAS_BIN) + " train " + tiny(64) + "--rank-timeout 3 --out " +
                (dir / "run").string());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cannot reach rank 0"), std::string::npos) << r.err;
  EXPECT_LT(seconds, 30);
  EXPECT_FALSE(fs::exists(dir / "run"));
}

TEST(DataParallel, ARankKilledMidRunStopsTheOtherWithOneLine) {
  const fs::path dir = folder("killed");
  fs::create_directories(dir);
  const std::string port = "MASTER_PORT=" + std::to_string(29900 + ::getpid() % 90);
  const std::string run = (dir / "run").string();
  std::vector<std::string> argv0{"/usr/bin/env",          "WORLD_SIZE=2", "RANK=0",
                                 "MASTER_ADDR=127.0.0.1", port,           POSBIAS_BIN},
      argv1{"/usr/bin/env", "WORLD_SIZE=2", "RANK=1", "MASTER_ADDR=127.0.0.1", port, POSBIAS_BIN};
  for (const char* a :
       {"train",  "--task",         "number", "--layers",     "2",  "--d-model",
        "32",     "--mlp",          "64",     "--rotary-dim", "8",  "--steps",
        "100000", "--dropout",      "0",      "--eval-every", "10", "--eval-per-hop",
        "16",     "--rank-timeout", "20",     "--out"}) {
    argv0.push_back(a);
    argv1.push_back(a);
  }
  argv0.push_back(run);
  argv1.push_back(run);
  Process rank0(argv0, (dir / "log0").string()), rank1(argv1, (dir / "log1").string());
  // Kill rank 1 once training is under way (rank 0 has logged step 20).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines(slurp(fs::path(run) / "metrics.jsonl")) < 3 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GE(lines(slurp(fs::path(run) / "metrics.jsonl")), 3) << slurp(dir / "log0");
  rank1.signal(SIGKILL);
  const auto t0 = std::chrono::steady_clock::now();
  const int code = rank0.wait();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rank1.wait();
  EXPECT_EQ(code, 1);
  EXPECT_LT(seconds, 25) << "the survivor must give up within --rank-timeout";
  const std::string log = slurp(dir / "log0");
  std::string last = log.substr(log.rfind('\n', log.size() - 2) + 1);
  EXPECT_NE(last.find("lost its peers"), std::string::npos) << log;
  EXPECT_EQ(last.find("frame #"), std::string::npos) << log;
}

TEST(DataParallel, ABirthProfileShardedOverTwoRanksEqualsOneProcess) {
  const fs::path dir = folder("birth");
  fs::create_directories(dir);
  const std::string args =
      "birth --arch gpt2 --layers 3 --d-model 32 --heads 2 --length 48 --seeds 64 --bootstrap 20 ";
  CliResult r = run_cli(args + "--json " + (dir / "one.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("launch --nproc 2 -- " + args + "--json " + (dir / "two.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto one = nlohmann::json::parse(slurp(dir / "one.json")),
             two = nlohmann::json::parse(slurp(dir / "two.json"));
  ASSERT_EQ(one.at("profile_seeds").size(), 64u);
  ASSERT_EQ(two.at("profile_seeds").size(), 64u);
  double worst = 0;
  for (std::size_t s = 0; s < 64; ++s) {
    const auto& a = one["profile_seeds"][s];
    const auto& b = two["profile_seeds"][s];
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 0; j < a.size(); ++j) {
      worst = std::max(
          worst, std::abs(a[j].get<double>() - b[j].get<double>()) / std::abs(a[j].get<double>()));
    }
  }
  EXPECT_LT(worst, 1e-6) << "worst relative difference of a seed's profile";
  for (const char* key : {"alpha", "log_r2", "attention_entropy_ratio"}) {
    EXPECT_NEAR(one[key].get<double>(), two[key].get<double>(),
                1e-6 * std::abs(one[key].get<double>()))
        << key;
  }
  std::printf("64-seed birth on 2 ranks vs 1: worst relative profile difference %.3g\n", worst);
  EXPECT_FALSE(
      fs::exists(dir / "two.json.seeds.json"));  // the journal goes once the result is written
  expect_usage_error("launch --nproc 2 -- birth --run " + dir.string(), "not split over ranks");
}

TEST(DataParallel, HeadScoresOfARunShardedOverTwoRanksEqualOneProcess) {
  const fs::path dir = folder("heads");
  ASSERT_EQ(run_cli("train " + tiny(64, 40) + "--out " + (dir / "run").string()).code, 0);
  const std::string args = "heads --run " + (dir / "run").string() + " --samples 8 ";
  CliResult r = run_cli(args + "--json " + (dir / "one.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("launch --nproc 2 -- " + args + "--json " + (dir / "two.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto one = nlohmann::json::parse(slurp(dir / "one.json")),
       two = nlohmann::json::parse(slurp(dir / "two.json"));
  ASSERT_EQ(one["checkpoints"].size(), 4u);  // steps 10, 20, 30, 40
  ASSERT_EQ(two["checkpoints"].size(), 4u);
  double worst = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    EXPECT_EQ(one["checkpoints"][c]["step"], two["checkpoints"][c]["step"]);
    const auto &a = one["checkpoints"][c]["heads"], &b = two["checkpoints"][c]["heads"];
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t h = 0; h < a.size(); ++h) {
      for (const char* k : {"positional", "symbolic", "gap", "self"})
        worst = std::max(worst, std::abs(a[h][k].get<double>() - b[h][k].get<double>()));
      EXPECT_EQ(a[h]["label"], b[h]["label"]);
    }
  }
  EXPECT_LT(worst, 1e-9);
  // Every field but the scores (compared above) and the wall time, including what rank 0 takes
  // from the ranks' records: the task, the attention path and the sample length.
  for (auto* j : {&one, &two}) j->erase("seconds"), j->erase("checkpoints");
  EXPECT_EQ(one, two);
  EXPECT_GT(two["length"].get<std::int64_t>(), 0);
  EXPECT_EQ(two["task"], "number");
  EXPECT_EQ(two["attention"], "dense");
  expect_usage_error("launch --nproc 2 -- heads --config x.json --weights y", "give --run");
}

}  // namespace
