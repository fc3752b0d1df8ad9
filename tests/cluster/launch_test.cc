// `posbias launch` starts ranks only of the commands that split their work over them (train,
// birth, heads). Any other command would run whole on every rank and write its result once
// per rank (`launch --nproc 2 -- theory` printed the profile twice): it is refused in one line,
// exit 2, before any rank starts, and nothing is written. A data-parallel command still gets
// its ranks, which check their world themselves.
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

}  // namespace
