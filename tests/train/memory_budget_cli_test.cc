// The memory plan covers every allocation that grows with a number the user gives: on tiny runs,
// each command either refuses in one line (exit 2) before it allocates, or holds its examples a
// batch at a time so that its peak resident memory (measured by the kernel: wait4's ru_maxrss)
// does not grow with --count, --eval-per-hop or --samples. Each refusal has its negative
// control: the same command within a budget that fits runs.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_memory_budget", name); }

// One command's exit code, stderr, wall time and peak resident memory.
struct Measured {
  int code = -1;
  std::string err;
  double seconds = 0;
  double peak_mb = 0;  // the largest resident set of the process (and of what it waited for)
};

Measured measure(const std::string& args, int timeout_seconds = 120) {
  const fs::path err = scratch("stderr");
  const std::string command = "exec timeout " + std::to_string(timeout_seconds) + " " +
                              std::string(POSBIAS_BIN) + " " + args + " >/dev/null 2>" +
                              err.string() + " </dev/null";
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  Measured m;
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) return m;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.err = slurp(err);
  m.peak_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  return m;
}

// A refusal: exit 2, one line naming `mentions`, within seconds and small (nothing big was made).
void expect_refused_before_allocating(const std::string& args, const std::string& mentions) {
  const Measured m = measure(args);
  EXPECT_EQ(m.code, 2) << args << "\n" << m.err;
  EXPECT_EQ(lines(m.err), 1) << args << "\n" << m.err;
  EXPECT_NE(m.err.find(mentions), std::string::npos) << args << ": " << m.err;
  EXPECT_LT(m.seconds, 20.0) << args;
  EXPECT_LT(m.peak_mb, 1000.0) << args << ": the refusal came after an allocation";
}

const std::string kTinyHop =
    "--task letter --hops 1 --layers 1 --d-model 16 --heads 2 --mlp 32 --rotary-dim 8 "
    "--dropout 0 ";

// One tiny Letter run shared by the tests that only read it.
const fs::path& hop_run() {
  static const fs::path run = [] {
    const fs::path r = scratch("letter");
    const CliResult c = run_cli("train " + kTinyHop +
                                    "--eval-per-hop 16 --steps 2 --warmup 0 --eval-every 2 "
                                    "--checkpoint-every 2 --out " +
                                    r.string(),
                                300);
    EXPECT_EQ(c.code, 0) << c.err;
    return r;
  }();
  return run;
}

// Peak resident memory of the command `args(n)` with a small and a large number n of examples;
// the large one must not cost more than `slack_mb` over the small. `small` is at least two of
// the command's batches, so both peaks include a full batch's forward pass: what may not grow
// is what is held beyond it (before batching, every example as strings: 32 bytes a token).
void expect_peak_independent_of_count(const std::function<std::string(int)>& args, int small,
                                      int large, double slack_mb) {
  const Measured a = measure(args(small), 300);
  const Measured b = measure(args(large), 300);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  std::printf("%d examples: peak %.1f MB in %.1f s; %d: peak %.1f MB in %.1f s\n", small, a.peak_mb,
              a.seconds, large, b.peak_mb, b.seconds);
  EXPECT_LT(b.peak_mb - a.peak_mb, slack_mb)
      << args(large) << ": " << small << " examples peak at " << a.peak_mb << " MB, " << large
      << " at " << b.peak_mb << " MB (" << a.seconds << " s and " << b.seconds << " s)";
}

TEST(MemoryBudget, TrainingPlansItsHeldOutEvaluation) {
  // The held-out set is generated a batch at a time: --eval-per-hop adds time, not memory.
  // (A run's peak varies by up to 40 MB from run to run; 32000 examples of 128 tokens held
  // whole are some 190 MB more.)
  expect_peak_independent_of_count(
      [](int n) {
        return "train " + kTinyHop + "--length 128 --steps 1 --warmup 0 --eval-every 1 " +
               "--checkpoint-every 1 --eval-per-hop " + std::to_string(n) + " --out " +
               scratch("eval_per_hop_" + std::to_string(n)).string();
      },
      512, 32000, 80);
}

TEST(MemoryBudget, TrainingRefusesAnEvaluationBatchThatDoesNotFit) {
  // A batch-2 training step at length 1024 fits 0.6 GB on the dense path; the evaluation's
  // forward over eval_batch_size(1024) = 47 examples (2 × 47 × 2 heads × 1024² floats of scores
  // and softmax) does not, and is refused before step 0.
  const fs::path out = scratch("dense_eval");
  expect_refused_before_allocating("train " + kTinyHop +
                                       "--length 1024 --batch 2 --attention dense "
                                       "--memory-budget 0.6 --steps 1 --warmup 0 --out " +
                                       out.string(),
                                   "held-out examples at a time (dense attention) needs about");
  EXPECT_FALSE(fs::exists(out / "train.json")) << "a refused plan leaves no run behind";
  // Negative control: the same run on blockwise attention fits.
  const Measured ok = measure("train " + kTinyHop +
                              "--length 1024 --batch 2 --attention blockwise --memory-budget 0.6 "
                              "--steps 1 --warmup 0 --eval-every 1 --eval-per-hop 4 --out " +
                              scratch("blockwise_eval").string());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_LT(ok.peak_mb, 600.0);
}

TEST(MemoryBudget, EvalHoldsOneBatchOfExamples) {
  expect_peak_independent_of_count(
      [](int n) {
        return "eval --run " + hop_run().string() + " --lengths 128 --no-controls " +
               "--memory-budget 1 --count " + std::to_string(n);
      },
      512, 32000, 80);
}

TEST(MemoryBudget, HeadsRefusesSamplesThatDoNotFitBeforeMakingThem) {
  // 2000 samples of 16384 ids are 262 MB as ids (1 GB as examples): refused before one is made.
  expect_refused_before_allocating(
      "heads --run " + hop_run().string() + " -L 16384 --samples 2000 --memory-budget 0.5",
      "heads on 2000 samples of length 16384 (blockwise attention) needs about");
  // Negative control: a sample count that fits.
  const Measured ok =
      measure("heads --run " + hop_run().string() +
              " -L 64 --samples 50 --memory-budget 0.5 --json " + scratch("heads.json").string());
  EXPECT_EQ(ok.code, 0) << ok.err;
}

TEST(MemoryBudget, DiscrepancyHoldsOneBatchOfExamples) {
  expect_peak_independent_of_count(
      [](int n) {
        return "discrepancy --run " + hop_run().string() + " --lengths 128 --memory-budget 1 " +
               "--count " + std::to_string(n);
      },
      128, 32000, 80);
  // What does grow with --count (three gaps per example and key head) is planned.
  expect_refused_before_allocating("discrepancy --run " + hop_run().string() +
                                       " --lengths 17 --count 100000 --memory-budget 0.001",
                                   "the memory budget is 1.0 MB (--memory-budget)");
}

TEST(MemoryBudget, ConstructionsHonourTheBudget) {
  expect_refused_before_allocating(
      "discrepancy --function index --lengths 64 --count 8 --memory-budget 0.001",
      "the index construction on 8 inputs of length 64 needs about");
  // Negative control: a budget that fits.
  const Measured ok =
      measure("discrepancy --function index --lengths 64 --count 8 --memory-budget 1");
  EXPECT_EQ(ok.code, 0) << ok.err;
}

TEST(MemoryBudget, TextEvalHonoursTheBudget) {
  const fs::path corpus = write_brown_excerpt("posbias_memory_budget_corpus", 12, 20);
  const fs::path run = scratch("text");
  const CliResult t =
      run_cli("train --task text --corpus " + corpus.string() +
                  " --tokenizer bytes --layers 1 --d-model 16 --heads 2 --mlp 32 --length 32 "
                  "--batch 4 --eval-windows 4 --steps 1 --warmup 0 --eval-every 1 "
                  "--checkpoint-every 1 --out " +
                  run.string(),
              300);
  ASSERT_EQ(t.code, 0) << t.err;
  expect_refused_before_allocating("eval --run " + run.string() + " --memory-budget 0.001",
                                   "the memory budget is 1.0 MB (--memory-budget)");
  // Negative control: a budget that fits.
  const Measured ok = measure("eval --run " + run.string() + " --memory-budget 2 --json " +
                              scratch("text_eval.json").string());
  EXPECT_EQ(ok.code, 0) << ok.err;
}

}  // namespace
