// `theory fit --profile`'s reader (read_profile_csv, fit_command.h): a profile with one column
// per seed is averaged over the seeds, and a file out of position order or without an influence
// or seed column is refused; `theory`'s own CSV (row_csv) reads back as its row.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "experiments/theory/fit_command.h"
#include "experiments/theory/theory_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/theory/influence.h"

namespace posbias {
namespace {

std::filesystem::path temp_dir() {
  auto dir = std::filesystem::temp_directory_path() /
             ("posbias_profile_csv_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ProfileCsv, ProfileFileWithSeeds) {
  const auto dir = temp_dir();
  write_file_atomic(dir / "p.csv", "position,seed0,seed1\n1,4,6\n2,2,2\n3,1,3\n4,5,5\n");
  const MeasuredProfile p = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(p.seeds.size(), 2u);
  EXPECT_DOUBLE_EQ(p.mean[0], 5.0);
  EXPECT_DOUBLE_EQ(p.mean[2], 2.0);
  write_file_atomic(dir / "bad.csv", "position,influence\n1,4\n3,2\n2,1\n4,1\n");
  EXPECT_THROW(read_profile_csv(dir / "bad.csv"), std::runtime_error);  // out of order
  write_file_atomic(dir / "none.csv", "position,other\n1,4\n2,2\n3,1\n4,1\n");
  EXPECT_THROW(read_profile_csv(dir / "none.csv"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

// The writer and the reader name the columns alike (theory/profile_columns.h): the row `theory`
// writes is the profile `theory fit --profile` reads, position by position.
TEST(ProfileCsv, TheoryRowReadsBack) {
  InfluenceSpec spec;
  spec.length = 40;
  spec.layers = 3;
  spec.alpha = {0.5};
  const std::vector<ExtReal> row = influence_row(spec);
  const auto dir = temp_dir();
  write_file_atomic(dir / "theory.csv", row_csv(row));
  const MeasuredProfile p = read_profile_csv(dir / "theory.csv");
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(p.seeds.empty());
  ASSERT_EQ(p.mean.size(), row.size());
  double worst = 0;
  for (std::size_t j = 0; j < row.size(); ++j)
    worst = std::max(worst, std::abs(p.mean[j] / row[j].to_double() - 1));
  EXPECT_LE(worst, 1e-15) << "worst relative error";
}

}  // namespace
}  // namespace posbias
