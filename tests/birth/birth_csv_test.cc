// `birth --csv`'s file (birth_csv) is a profile `theory fit --profile` reads (read_profile_csv):
// both name the columns from theory/profile_columns.h, so each seed's column reads back as that
// seed's profile and the influence column as their mean.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "experiments/birth/birth.h"
#include "experiments/theory/fit_command.h"
#include "posbias/core/atomic_file.h"

namespace posbias {
namespace {

TEST(BirthCsv, ReadsBackAsTheProfile) {
  BirthResult r;
  r.profile_seeds = {{0.5, 0.25, 0.125, 2.0}, {0.25, 0.5, 0.375, 1.0}};
  r.profile = {0.375, 0.375, 0.25, 1.5};  // the seeds' mean
  const auto dir = std::filesystem::temp_directory_path() /
                   ("posbias_birth_csv_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_file_atomic(dir / "birth.csv", birth_csv(r));
  const MeasuredProfile p = read_profile_csv(dir / "birth.csv");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(p.seeds, r.profile_seeds);  // every value is exact in %.10g
  EXPECT_EQ(p.mean, r.profile);
}

}  // namespace
}  // namespace posbias
