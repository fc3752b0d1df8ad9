// The CSV reader on well-formed and hostile input, and atomic writes.
#include "posbias/core/csv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
