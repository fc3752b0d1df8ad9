// The CSV reader on well-formed and hostile input, and atomic writes.
#include "posbias/core/csv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "experiments/theory/fit_command.h"
#include "posbias/core/atomic_file.h"

namespace posbias {
namespace {

std::filesystem::path temp_dir() {
  auto dir =
      std::filesystem::temp_directory_path() / ("posbias_csv_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(Csv, ParsesNumbers) {
  const CsvTable t = parse_numeric_csv("# comment\nposition, influence\n1,0.5\n2, 1e-3\r\n", "x");
  ASSERT_EQ(t.header.size(), 2u);
  EXPECT_EQ(t.column("influence"), 1);
  EXPECT_EQ(t.column("missing"), -1);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(t.rows[1][1], 1e-3);
}

TEST(Csv, QuotedFieldsDoubleTheirQuotes) {
  EXPECT_EQ(csv_quoted("gpt-4o"), "\"gpt-4o\"");
  EXPECT_EQ(csv_quoted("a \"b\", c"), "\"a \"\"b\"\", c\"");
  EXPECT_EQ(csv_quoted(""), "\"\"");
}

TEST(Csv, RejectsHostileInput) {
  EXPECT_THROW(parse_numeric_csv("", "x"), std::runtime_error);
  EXPECT_THROW(parse_numeric_csv("a,b\n1\n", "x"), std::runtime_error);
  EXPECT_THROW(parse_numeric_csv("a,b\n1,zz\n", "x"), std::runtime_error);
  EXPECT_THROW(parse_numeric_csv("a,b\n1,nan\n", "x"), std::runtime_error);
  EXPECT_THROW(parse_numeric_csv("a,b\n1,inf\n", "x"), std::runtime_error);
  EXPECT_THROW(parse_numeric_csv(std::string(5000, ',') + "\n", "x"), std::runtime_error);
  EXPECT_THROW(read_numeric_csv("/nonexistent/profile.csv"), std::runtime_error);
  EXPECT_THROW(read_numeric_csv("/"), std::runtime_error);
}

TEST(Csv, ProfileFileWithSeeds) {
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

TEST(AtomicFile, ReplacesWholeFileAndLeavesNoTemporaries) {
  const auto dir = temp_dir();
  write_file_atomic(dir / "a.txt", "first");
  write_file_atomic(dir / "a.txt", "second");
  std::ifstream in(dir / "a.txt");
  std::string s;
  std::getline(in, s);
  EXPECT_EQ(s, "second");
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  EXPECT_THROW(write_file_atomic("/proc/version/x", "y"), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace posbias
