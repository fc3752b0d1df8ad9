// birth's seed journal (experiments/birth/seed_journal.h): seeds recorded read back on resume
// exactly, in the file layout earlier builds wrote; a journal of other options, a file that is
// not a journal and a malformed seed number are refused, each in one line. birth's key
// (seed_journal_key.h) is the one a journal an earlier build wrote holds, so that journal
// (journal_files/) resumes.
#include "experiments/birth/seed_journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "experiments/birth/birth.h"
#include "experiments/birth/seed_journal_key.h"

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

// A journal `birth` wrote before its key had a field table (killed after two seeds):
//   birth --arch gpt2 --layers 2 --d-model 32 --heads 2 --length 48 --seeds 400 --method exact
//         --bootstrap 0 --attn-init-scale 0.5 --query 40 --json r.json
// The same options give its key, and it resumes with its two seeds.
TEST(SeedJournal, AJournalOfAnEarlierBuildResumes) {
  posbias::BirthOptions o;
  o.arch = "gpt2", o.layers = 2, o.d_model = 32, o.heads = 2, o.length = 48, o.seeds = 400;
  o.method = posbias::JacobianMethod::kExact, o.bootstrap = 0, o.attn_init_scale = 0.5;
  o.query = 40;
  const nlohmann::json key = to_json(seed_journal_key(o, posbias::birth_model_config(o)));
  const fs::path result = scratch_result();
  fs::copy_file(fs::path(POSBIAS_SOURCE_DIR) / "tests/birth/journal_files/gpt2-query40.seeds.json",
                result.string() + ".seeds.json", fs::copy_options::overwrite_existing);
  const posbias::SeedJournal resumed(result, key, true);
  EXPECT_EQ(resumed.done().size(), 2u);
  // The text a profile was measured on is in the key as earlier builds wrote it.
  o.text = "lines.txt", o.tokenizer = "tokenizer.json";
  EXPECT_EQ(to_json(seed_journal_key(o, posbias::birth_model_config(o))).at("text"),
            nlohmann::json({{"file", "lines.txt"}, {"tokenizer", "tokenizer.json"}}));
  fs::remove_all(result.parent_path());
}

}  // namespace
