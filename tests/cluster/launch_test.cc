// `posbias launch` starts ranks only of the commands that split their work over them (train,
// birth, heads). Any other command would run whole on every rank and write its result once
// per rank (`launch --nproc 2 -- theory` printed the profile twice): it is refused in one line,
// exit 2, before any rank starts, and nothing is written. A data-parallel command still gets
// its ranks, which check their world themselves, and writes its result once; its help is printed
// once. A command given without the `--` before it gets one line saying to put it there, and an
// option launch does not have one line naming it. A tiny 2-rank train prints one progress and one
// summary; into a folder that holds a run, one line.
#include <gtest/gtest.h>

#include <filesystem>

#include "../cli_run.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

TEST(Launch, RefusesACommandThatIsNotDataParallel) {
  const fs::path dir = scratch_path("posbias_launch", "theory");
  fs::create_directories(dir);
  for (const std::string& command :
       {std::string("theory -L 100 -H 2"), "theory -L 100 -H 2 --out " + (dir / "p.csv").string(),
        std::string("tasks --task number --count 2")}) {
    const CliResult r = run_cli("launch --nproc 2 -- " + command);
    EXPECT_EQ(r.code, 2) << command << "\n" << r.out << r.err;
    EXPECT_EQ(lines(r.err), 1) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("data-parallel command (train, birth, heads)"), std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << command << " printed:\n" << r.out;
  }
  EXPECT_FALSE(fs::exists(dir / "p.csv"));
  // The command alone prints its result once.
  const CliResult once = run_cli("theory -L 100 -H 2");
  ASSERT_EQ(once.code, 0) << once.err;
  EXPECT_FALSE(once.out.empty());
}

// How often a command ran, counted from what it printed on stdout: `pattern` once per run.
int runs(const std::string& out, const std::string& pattern) {
  int n = 0;
  for (std::size_t at = out.find(pattern); at != std::string::npos; at = out.find(pattern, at + 1))
    ++n;
  return n;
}

TEST(Launch, RunsTheCommandOnceForItsResultAndItsHelp) {
  // theory is refused at any --nproc, the default one included: it does not run at all.
  for (const std::string nproc : {"", "--nproc 1 ", "--nproc 2 "}) {
    const CliResult r = run_cli("launch " + nproc + "-- theory -L 100 -H 2");
    EXPECT_EQ(r.code, 2) << nproc << r.err;
    EXPECT_EQ(lines(r.err), 1) << nproc << r.err;
    EXPECT_EQ(r.out, "") << nproc;
  }
  // A data-parallel command over 2 ranks writes its result once (rank 0).
  const CliResult birth = run_cli(
      "launch --nproc 2 -- birth --arch gpt2 --layers 1 --d-model 16 --heads 2 --length 8 "
      "--seeds 2");
  ASSERT_EQ(birth.code, 0) << birth.err;
  EXPECT_EQ(runs(birth.out, "\"peak_rss_mb\""), 1) << birth.out.substr(0, 300);
  EXPECT_EQ(runs(birth.err, "birth: no-fit median"), 1) << birth.err;
  // The command's help is printed once, not once per rank.
  for (const std::string help : {"--help", "-h"}) {
    const CliResult r = run_cli("launch --nproc 2 -- train " + help);
    EXPECT_EQ(r.code, 0) << help << r.err;
    EXPECT_EQ(runs(r.out, "Usage:"), 1) << help << "\n" << r.out;
    EXPECT_EQ(r.err, "") << help;
  }
}

TEST(Launch, ForgettingTheSeparatorSaysWhereItGoes) {
  for (const std::string args :
       {"launch theory -L 10", "launch --nproc 2 theory -L 10 -H 1",
        "launch --nproc 2 train --task number --steps 1", "launch train --task=number"}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("put -- before the command and its options"), std::string::npos)
        << args << "\n"
        << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  // An option launch does not have, given before a --, is named as such, with the one it is
  // probably meant as; its value does not turn the command's options into "not expected".
  for (const std::string typo : {"--nprocs=2", "--nprocs 2"}) {
    const CliResult r = run_cli("launch " + typo + " -- train --task number --steps 4");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err, "posbias: error: launch has no option '" + typo.substr(0, typo.find(' ')) +
                         "'; did you mean '--nproc'? (its options: --nproc, --nnodes, "
                         "--node-rank, --master-addr, --master-port; see --help)\n")
        << typo;
    EXPECT_EQ(r.out, "") << typo;
  }
  // With the --, the command's options are the command's.
  const CliResult separated = run_cli("launch -- theory -L 10");
  EXPECT_EQ(separated.code, 2);
  EXPECT_NE(separated.err.find("'theory' is not one"), std::string::npos) << separated.err;
}

TEST(Launch, StartsTheRanksOfADataParallelCommand) {
  // Both train ranks start and refuse the batch that does not split over them: one line (the
  // second rank's identical line is not repeated), exit 2.
  const CliResult r = run_cli(
      "launch --nproc 2 -- train --task number --layers 1 --d-model 16 --mlp 32 "
      "--steps 1 --warmup 0 --batch 63 --out " +
      scratch_path("posbias_launch", "train").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("WORLD_SIZE 2"), std::string::npos) << r.err;
}

TEST(Launch, TrainsOnceWithOneProgressAndOneSummary) {
  // A tiny data-parallel run: rank 0 alone shows progress and the summary line; the run folder
  // holds one run. Launched again into the same folder: one line saying so, exit 2 (every rank
  // refuses before the ranks join, so none reports a lost peer).
  const fs::path run = scratch_path("posbias_launch", "tiny");
  const std::string train =
      "launch --nproc 2 -- train --task number --layers 1 --d-model 16 --heads 2 --mlp 32 "
      "--steps 400 --warmup 1 --eval-per-hop 4 --out " +
      run.string();
  CliResult r = run_cli(train);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(runs(r.err, "posbias train: 400 steps"), 1) << r.err;
  EXPECT_LE(runs(r.err, "number training: 100%"), 1) << r.err;
  EXPECT_EQ(runs(r.err, "posbias: error"), 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(run / "summary.json"));
  r = run_cli(train);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err, "posbias: error: '" + run.string() +
                       "' already holds a run; continue it with --resume or choose another "
                       "--out\n");
}

}  // namespace
