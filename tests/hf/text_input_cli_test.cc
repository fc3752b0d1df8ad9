// `birth --text` and `heads --text` on the golden GPT-2 checkpoint with a tokenizer.json beside
// its config.json: the text is measured as its ids are through --tokens, the length defaults to
// the shortest line's, and bad input is one line with exit 2 (usage) or 1 (a failed run).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../cli_run.h"
#include "posbias/hf/checkpoint_tokenizer.h"
#include "small_tokenizer.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

TEST(TextInput, BirthAndHeadsMeasureTextThroughTheCheckpointsTokenizer) {
  const fs::path golden = fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/models/gpt2";
  const fs::path dir = scratch_path("posbias_text_input", "checkpoint");
  fs::create_directories(dir);
  for (const char* file : {"config.json", "model.safetensors"})
    fs::copy_file(golden / file, dir / file);
  std::ofstream(dir / "tokenizer.json") << small_tokenizer().dump();
  std::ofstream(dir / "text.txt")
      << "ab ab ab ab ab ab ab ab ab ab\n\nab ba ab ab ab ab ab ab ab<|end|>\n";
  const std::string checkpoint = "--config " + (dir / "config.json").string() + " --weights " +
                                 (dir / "model.safetensors").string();
  const std::string text = " --text " + (dir / "text.txt").string();

  const CliResult birth =
      run_cli("birth " + checkpoint + text + " --json " + (dir / "text.json").string());
  ASSERT_EQ(birth.code, 0) << birth.err;
  const auto j = nlohmann::json::parse(slurp(dir / "text.json"));
  EXPECT_EQ(j["measurement"]["input"], "text:" + (dir / "text.txt").string());
  EXPECT_EQ(j["measurement"]["length"], 10);  // the shortest line: ab and 9 × Ġab
  EXPECT_EQ(j["seeds"], 2);                   // one per line, the empty one skipped

  // The same ids through --tokens, cut to the length, give the same profile.
  const posbias::CheckpointTokenizer tokenizer =
      posbias::CheckpointTokenizer::load(dir / "tokenizer.json");
  std::ofstream ids(dir / "ids.txt");
  for (const char* line : {"ab ab ab ab ab ab ab ab ab ab", "ab ba ab ab ab ab ab ab ab<|end|>"}) {
    const std::vector<std::int64_t> row = tokenizer.encode(line);
    for (std::size_t i = 0; i < 10; ++i) ids << row[i] << (i + 1 < 10 ? " " : "\n");
  }
  ids.close();
  const CliResult tokens =
      run_cli("birth " + checkpoint + " --length 10 --tokens " + (dir / "ids.txt").string() +
              " --json " + (dir / "ids.json").string());
  ASSERT_EQ(tokens.code, 0) << tokens.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(dir / "ids.json"))["profile"], j["profile"]);
  // A row shorter than the query's position is refused naming the row, in positions from 0.
  std::ofstream(dir / "short.txt") << "1 2 3 4 5 6 7 8 9 10\n1 2 3 4 5 6\n";
  expect_usage_error(
      "birth " + checkpoint + " --length 10 --tokens " + (dir / "short.txt").string(),
      "token row 2 holds 6 ids; the query at position 9 needs 10 (give a smaller "
      "--length)");

  const CliResult heads =
      run_cli("heads " + checkpoint + text + " --json " + (dir / "heads.json").string());
  ASSERT_EQ(heads.code, 0) << heads.err;
  const auto h = nlohmann::json::parse(slurp(dir / "heads.json"));
  EXPECT_EQ(h["length"], 10);
  EXPECT_EQ(h["source"]["text"], (dir / "text.txt").string());

  // Bad input: one line, exit 2 for usage and 1 for a run that fails.
  expect_usage_error("birth " + checkpoint + text + " --tokens " + (dir / "ids.txt").string(),
                     "--text and --tokens are two inputs: give one");
  expect_usage_error("heads " + checkpoint + text + " --tokens " + (dir / "ids.txt").string(),
                     "--text and --tokens are two inputs: give one");
  expect_usage_error("birth " + checkpoint + " --tokenizer " + dir.string(),
                     "--tokenizer encodes --text");
  expect_usage_error("birth " + checkpoint + text + " --seeds 3", "drop --seeds");
  expect_usage_error("birth " + checkpoint + text + " --length 12",
                     "input 1 of " + (dir / "text.txt").string() + " is 10 tokens");
  expect_error("birth --config " + (golden / "config.json").string() + " --weights " +
                   (golden / "model.safetensors").string() + text,
               "no tokenizer.json or tokenizer.model next to " + (golden / "config.json").string() +
                   "; give --tokenizer",
               1);
  std::ofstream(dir / "long.txt") << "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab\n";
  for (const char* command : {"birth ", "heads "}) {
    expect_error(command + checkpoint + " --text " + (dir / "long.txt").string(),
                 "long.txt:1: the line is 17 tokens, more than the model's 16 positions", 1);
  }
  const fs::path spm = fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/tokenizers/spm/tokenizer.model";
  expect_error("birth " + checkpoint + text + " --tokenizer " + spm.string(),
               "is outside the model's vocabulary of 37", 1);
  fs::remove_all(dir.parent_path());
}

}  // namespace
