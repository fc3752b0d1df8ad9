// birth's seed journal (experiments/birth/seed_journal.h): seeds recorded read back on resume
// exactly, in the file layout earlier builds wrote; a journal of other options, a file that is
// not a journal and a malformed seed number are refused, each in one line.
#include "experiments/birth/seed_journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;

fs::path scratch_result() {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_journal_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / "r.json";
}

void write_journal(const fs::path& result, const std::string& text) {
  std::ofstream(result.string() + ".seeds.json") << text;
}

TEST(SeedJournal, RecordedSeedsResumeExactlyInTheEarlierLayout) {
  const fs::path result = scratch_result();
  const nlohmann::json key = {{"length", 8}, {"seeds", 4}};
  {
    posbias::SeedJournal j(result, key, false);
    j.record(2, {0.5, 0.25, 0.1});
    j.record(0, {1.0, 1e-300, 3.0});
  }
  // Earlier builds wrote {"key": ..., "seeds": {"0": [...], ...}} on one line.
  std::ifstream in(result.string() + ".seeds.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, nlohmann::json({{"key", key},
                                  {"seeds", {{"0", {1.0, 1e-300, 3.0}}, {"2", {0.5, 0.25, 0.1}}}}})
                          .dump() +
                      "\n");
  const posbias::SeedJournal resumed(result, key, true);
  ASSERT_EQ(resumed.done().size(), 2u);
  EXPECT_EQ(resumed.done().at(0), (std::vector<double>{1.0, 1e-300, 3.0}));
  EXPECT_EQ(resumed.done().at(2), (std::vector<double>{0.5, 0.25, 0.1}));
  EXPECT_TRUE(posbias::SeedJournal(result, key, false).done().empty());  // not resumed: empty
  posbias::SeedJournal::discard(result);
  EXPECT_FALSE(fs::exists(result.string() + ".seeds.json"));
  EXPECT_TRUE(posbias::SeedJournal(result, key, true).done().empty());  // none: nothing resumed
}

TEST(SeedJournal, OtherOptionsAndDamagedFilesAreRefused) {
  const fs::path result = scratch_result();
  const nlohmann::json key = {{"length", 8}};
  write_journal(result, R"({"key": {"length": 9}, "seeds": {}})");
  EXPECT_THROW(posbias::SeedJournal(result, key, true), std::invalid_argument);
  auto refusal = [&](const std::string& text) {
    write_journal(result, text);
    try {
      posbias::SeedJournal(result, key, true);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal("not json").find("is not a birth seed journal"), std::string::npos);
  EXPECT_NE(refusal(R"({"key": {"length": 8}, "seeds": {"0": [1, "x"]}})")
                .find("journal field 'seeds.0' must be a list of numbers"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"key": {"length": 8}, "seeds": {}, "more": 1})")
                .find("unknown journal field 'more'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"key": {"length": 8}, "seeds": {"3x": [1]}})")
                .find("holds a malformed seed '3x'"),
            std::string::npos);
  fs::remove_all(result.parent_path());
}

}  // namespace
