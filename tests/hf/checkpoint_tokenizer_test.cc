// A checkpoint's own tokenizer against independent reference ids on fixed strings (ASCII,
// spaces, tabs and newlines, digits, contractions, accents and other scripts, emoji, NFC,
// added special tokens): tests/golden/tokenizers/ holds three real byte-level BPE tokenizers
// trimmed to their first 1000 merges (GPT-2, Llama 3 with its BOS template, Qwen2 with NFC)
// encoded by Hugging Face's tokenizers.js, and a SentencePiece model with Llama 2's settings
// encoded by spm_encode (regenerate.sh there makes them again). Then tokenizer.json's strict
// reader (one-line refusals naming the field), the tokenizer's discovery beside config.json,
// and text files (one input per line).
#include "posbias/hf/checkpoint_tokenizer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../one_line_error.h"
#include "posbias/hf/byte_level_bpe.h"
#include "posbias/hf/text_file.h"
#include "posbias/hf/tokenizer_json.h"
#include "small_tokenizer.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;
using posbias_test::expect_refused;
using posbias_test::small_tokenizer;

const fs::path kFixtures = fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/tokenizers";

nlohmann::json reference_ids() {
  std::ifstream in(kFixtures / "reference_ids.json");
  return nlohmann::json::parse(in);
}

// Every reference string of one tokenizer encoded as the reference does; returns the count.
std::size_t expect_reference_ids(const std::string& name, const fs::path& file) {
  const CheckpointTokenizer tokenizer = CheckpointTokenizer::load(file);
  std::size_t compared = 0, differing = 0;
  const nlohmann::json reference = reference_ids();
  for (const nlohmann::json& c : reference.at(name)) {
    const std::string text = c.at("text");
    const auto want = c.at("ids").get<std::vector<std::int64_t>>();
    const std::vector<std::int64_t> got = tokenizer.encode(text);
    ++compared;
    if (got != want) ++differing;
    EXPECT_EQ(got, want) << name << " on '" << text << "'";
  }
  std::cout << name << ": " << compared - differing << " of " << compared
            << " strings encoded as the reference does\n";
  return compared;
}

TEST(CheckpointTokenizer, Gpt2MatchesTokenizersJs) {
  EXPECT_EQ(expect_reference_ids("gpt2", kFixtures / "gpt2/tokenizer.json"), 16u);
}

TEST(CheckpointTokenizer, Llama3MatchesTokenizersJsWithItsBos) {
  EXPECT_EQ(expect_reference_ids("llama3", kFixtures / "llama3/tokenizer.json"), 16u);
  const CheckpointTokenizer t = CheckpointTokenizer::load(kFixtures / "llama3/tokenizer.json");
  EXPECT_EQ(t.encode("x").front(), 128000);  // <|begin_of_text|>
  EXPECT_EQ(t.vocab_size(), 128256);
}

TEST(CheckpointTokenizer, Qwen2MatchesTokenizersJsAfterNfc) {
  EXPECT_EQ(expect_reference_ids("qwen2", kFixtures / "qwen2/tokenizer.json"), 16u);
  const CheckpointTokenizer t = CheckpointTokenizer::load(kFixtures / "qwen2/tokenizer.json");
  EXPECT_EQ(t.encode("e\xCC\x81"), t.encode("\xC3\xA9"));  // e + combining acute is é
}

TEST(CheckpointTokenizer, SentencePieceMatchesSpmEncodeAfterItsBos) {
  EXPECT_EQ(expect_reference_ids("spm", kFixtures / "spm/tokenizer.model"), 12u);
}

TEST(CheckpointTokenizer, RefusesTextThatIsNotUtf8) {
  for (const char* file : {"gpt2/tokenizer.json", "spm/tokenizer.model"}) {
    const CheckpointTokenizer t = CheckpointTokenizer::load(kFixtures / file);
    EXPECT_THROW(t.encode("ok \xC3("), std::invalid_argument) << file;
    EXPECT_THROW(t.encode("\xED\xA0\x80"), std::invalid_argument) << file;  // a surrogate
    EXPECT_THROW(t.encode("\xF0\x9F\x98"), std::invalid_argument) << file;  // cut short
  }
}

void expect_bad(const nlohmann::json& j, const std::vector<std::string>& needles) {
  SCOPED_TRACE(j.dump().substr(0, 200));
  expect_refused([&] { (void)parse_tokenizer_json(j.dump(), "tok.json"); }, needles);
}

TEST(TokenizerJson, EncodesASmallTokenizer) {
  const fs::path dir = fs::temp_directory_path() / ("posbias_tok_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "tokenizer.json") << small_tokenizer().dump();
  const CheckpointTokenizer t = CheckpointTokenizer::load(dir / "tokenizer.json");
  EXPECT_EQ(t.encode("ab ab<|end|>ba"), (std::vector<std::int64_t>{3, 4, 5, 1, 0}));
  EXPECT_EQ(t.vocab_size(), 6);
  fs::remove_all(dir);
}

TEST(TokenizerJson, RefusesWhatItDoesNotImplementByField) {
  expect_bad(nlohmann::json::array(), {"tok.json: top level: must be an object"});
  auto j = small_tokenizer();
  j["model"]["type"] = "WordPiece";
  expect_bad(j, {"model: type 'WordPiece' is not supported", "tokenizer.model"});
  j = small_tokenizer();
  j["model"]["type"] = "Unigram";
  expect_bad(j, {"model: type 'Unigram' is not supported"});
  j = small_tokenizer();
  j["model"]["merges"].push_back("a zz");
  expect_bad(j, {"model.merges[2]: names 'zz', which is not in model.vocab"});
  j = small_tokenizer();
  j["model"]["merges"].push_back("b a");
  expect_bad(j, {"model.merges[2]: makes 'ba', which is not in model.vocab"});
  j = small_tokenizer();
  j["model"]["merges"].push_back("ab");
  expect_bad(j, {"model.merges[2]: 'ab' is not two tokens separated by one space"});
  j = small_tokenizer();
  j["model"]["vocab"]["c"] = 1;
  expect_bad(j, {"model.vocab: id 1 is given to both"});
  j = small_tokenizer();
  j["model"]["vocab"]["c"] = -3;
  expect_bad(j, {"model.vocab['c']: must be a token id"});
  j = small_tokenizer();
  j["model"]["byte_fallback"] = true;
  expect_bad(j, {"model.byte_fallback: true is not supported"});
  j = small_tokenizer();
  j["model"]["spaces"] = 1;
  expect_bad(j, {"model: unknown field 'spaces'"});
  j = small_tokenizer();
  j["normalizer"] = {{"type", "NFKC"}};
  expect_bad(j, {"normalizer: type 'NFKC' is not supported"});
  j = small_tokenizer();
  j["pre_tokenizer"] = {{"type", "Metaspace"}};
  expect_bad(j, {"pre_tokenizer: type 'Metaspace' is not supported"});
  j = small_tokenizer();
  j["pre_tokenizer"] = {
      {"type", "Sequence"},
      {"pretokenizers",
       {{{"type", "Split"}, {"pattern", {{"Regex", "\\s+"}}}, {"behavior", "Removed"}},
        {{"type", "ByteLevel"}}}}};
  expect_bad(j, {"pre_tokenizer.pretokenizers[0].behavior: must be \"Isolated\""});
  j = small_tokenizer();
  j["post_processor"] = {{"type", "RobertaProcessing"}};
  expect_bad(j, {"post_processor: type 'RobertaProcessing' is not supported"});
  j = small_tokenizer();
  j["truncation"] = {{"max_length", 8}};
  expect_bad(j, {"truncation: must be null"});
  j = small_tokenizer();
  j["added_tokens"][0]["lstrip"] = true;
  expect_bad(j, {"added_tokens[0].lstrip: true is not supported"});
  j = small_tokenizer();
  j.erase("model");
  expect_bad(j, {"required field model is missing"});
  expect_refused([] { (void)parse_tokenizer_json("{\"model\": {", "tok.json"); },
                 {"tok.json: not valid JSON"});
  expect_refused([] { (void)parse_tokenizer_json(R"({"model": 1, "model": 2})", "tok.json"); },
                 {"duplicate key 'model'"});
}

TEST(TokenizerJson, RefusesASplitPatternOnigurumaCannotCompile) {
  auto j = small_tokenizer();
  j["pre_tokenizer"] = {
      {"type", "Sequence"},
      {"pretokenizers",
       {{{"type", "Split"}, {"pattern", {{"Regex", "(unclosed"}}}, {"behavior", "Isolated"}},
        {{"type", "ByteLevel"}}}}};
  expect_refused([&] { ByteLevelBpe(parse_tokenizer_json(j.dump(), "tok.json"), "tok.json"); },
                 {"tok.json: the split pattern '(unclosed' is not a regex"});
}

TEST(CheckpointTokenizer, IsFoundBesideConfigOrGiven) {
  const fs::path dir = fs::temp_directory_path() / ("posbias_find_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tok");
  std::ofstream(dir / "config.json") << "{}";
  expect_refused([&] { (void)CheckpointTokenizer::find(dir / "config.json", {}); },
                 {"no tokenizer.json or tokenizer.model next to", "give --tokenizer"});
  fs::copy_file(kFixtures / "gpt2/tokenizer.json", dir / "tokenizer.json");
  EXPECT_EQ(CheckpointTokenizer::find(dir / "config.json", {}).source(),
            (dir / "tokenizer.json").string());
  fs::copy_file(kFixtures / "spm/tokenizer.model", dir / "tok/tokenizer.model");
  EXPECT_EQ(CheckpointTokenizer::find(dir / "config.json", dir / "tok").source(),
            (dir / "tok/tokenizer.model").string());
  expect_refused([&] { (void)CheckpointTokenizer::find(dir / "config.json", dir / "none.json"); },
                 {"none.json"});
  std::ofstream(dir / "tok/bad.model") << "not a model";
  expect_refused([&] { (void)CheckpointTokenizer::load(dir / "tok/bad.model"); },
                 {"bad.model' is not a SentencePiece model"});
  fs::remove_all(dir);
}

TEST(TextFile, EncodesEachLineAndRefusesLinesPastThePositions) {
  const CheckpointTokenizer t = CheckpointTokenizer::load(kFixtures / "gpt2/tokenizer.json");
  std::istringstream in("Hello world\r\n\nThe quick brown fox\n");
  const auto rows = parse_text_lines(in, "in.txt", t, 50257, 64);
  ASSERT_EQ(rows.size(), 2u);  // the empty line skipped
  EXPECT_EQ(rows[0], t.encode("Hello world"));
  EXPECT_EQ(rows[1], t.encode("The quick brown fox"));
  std::istringstream long_line("ok\nThe quick brown fox jumps over the lazy dog.\n");
  expect_refused([&] { (void)parse_text_lines(long_line, "in.txt", t, 50257, 8); },
                 {"in.txt:2: the line is 19 tokens, more than the model's 8 positions"});
  std::istringstream big_id("<|endoftext|>\n");
  expect_refused([&] { (void)parse_text_lines(big_id, "in.txt", t, 37, 8); },
                 {"in.txt:1: token id 50256", "outside the model's vocabulary of 37"});
  std::istringstream bad_utf8("fine\nnot \xFF utf-8\n");
  expect_refused([&] { (void)parse_text_lines(bad_utf8, "in.txt", t, 50257, 64); },
                 {"in.txt:2: byte 5 is not valid UTF-8"});
  std::istringstream empty("\n\n");
  expect_refused([&] { (void)parse_text_lines(empty, "in.txt", t, 50257, 64); }, {"no lines"});
}

}  // namespace
}  // namespace posbias
