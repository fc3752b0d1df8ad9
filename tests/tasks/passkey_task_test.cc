// The passkey format (tasks/passkey_task.h) in a SentencePiece and a byte tokenizer: every
// generated example is solved by the independent text solver (passkey_check.h) to its answer;
// every needle sits where its depth says (its Brown offset recomputed from the ids, the Brown ids
// kept in order around the needles); a depth cell puts the queried needle at round(d·F/100) and
// is the same whatever else is drawn; the checker fails on a wrong answer, name or needle count;
// needles that do not fit the length are refused in one line.
#include "posbias/tasks/passkey_task.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "../text/brown_excerpt.h"
#include "posbias/tasks/passkey_check.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"

namespace {

using namespace posbias;

struct Fixture {
  Tokenizer tokenizer;
  std::vector<std::int32_t> heldout;
};

// A SentencePiece tokenizer trained on a small Brown-style corpus, or bytes; its held-out ids.
const Fixture& fixture(bool spm) {
  static const Fixture bytes_fixture = [] {
    const TextCorpus corpus =
        read_brown_corpus(posbias_test::write_brown_excerpt("posbias_passkey_task_corpus", 12, 60));
    Fixture f{Tokenizer::bytes(), {}};
    f.heldout = encode_corpus(corpus, f.tokenizer).heldout;
    return f;
  }();
  static const Fixture spm_fixture = [] {
    const TextCorpus corpus = read_brown_corpus(
        posbias_test::write_brown_excerpt("posbias_passkey_task_corpus2", 12, 60));
    Fixture f{Tokenizer::train_spm(training_lines(corpus), 300), {}};
    f.heldout = encode_corpus(corpus, f.tokenizer).heldout;
    return f;
  }();
  return spm ? spm_fixture : bytes_fixture;
}

std::string text_before_answer(const PasskeyExample& ex, const Tokenizer& t) {
  return t.decode(std::vector<std::int32_t>(ex.ids.begin(), ex.ids.begin() + ex.answer_start - 1));
}

// Checks one example against the solver and against its needles' recomputed places; `brown` is
// what the haystack was cut from. Returns the number of needles checked.
int check_example(const PasskeyExample& ex, const Tokenizer& t, const std::int32_t* brown,
                  int length, std::size_t needles) {
  EXPECT_EQ(ex.ids.size(), static_cast<std::size_t>(length) + 1);
  EXPECT_EQ(ex.needles.size(), needles);
  const PasskeySolution s = solve_passkey(text_before_answer(ex, t));
  EXPECT_EQ(s.name, ex.target().name);
  EXPECT_EQ(s.answer, ex.target().number);
  EXPECT_EQ(s.needles, static_cast<int>(needles));
  // The answer's digits and the end are the ids the text decodes to.
  EXPECT_EQ(t.decode(std::vector<std::int32_t>(ex.ids.begin() + ex.answer_start - 1, ex.ids.end())),
            " " + ex.target().number + ".");
  // Needle spans from the ids: each starts with a newline and decodes to its sentence.
  std::vector<std::pair<int, int>> spans;  // [start, end) in ids
  std::set<std::string> names;
  for (const PasskeyNeedle& n : ex.needles) {
    names.insert(n.name);
    const std::string want = "\n" + passkey_needle_text(n.name, n.number) + "\n";
    int end = n.position;
    std::string got;
    while (got.size() < want.size() && end < static_cast<int>(ex.ids.size()))
      got =
          t.decode(std::vector<std::int32_t>(ex.ids.begin() + n.position, ex.ids.begin() + ++end));
    EXPECT_EQ(got, want) << "needle at " << n.position;
    EXPECT_EQ(n.size, end - n.position) << "needle at " << n.position;
    spans.emplace_back(n.position, end);
  }
  EXPECT_EQ(names.size(), needles) << "names are distinct";
  // What is left before the question is the Brown haystack, in order; each needle's offset is
  // the count of Brown ids before it, and its depth 100 · offset / F.
  const int question = ex.answer_start - 1 -
                       static_cast<int>(t.encode({passkey_question_text(ex.target().name)}).size());
  int brown_seen = 0;
  std::vector<int> offset_at(ex.ids.size(), -1);
  for (int i = 0; i < question;) {
    bool in_needle = false;
    for (auto [a, b] : spans) {
      if (i == a) {
        offset_at[static_cast<std::size_t>(a)] = brown_seen;
        i = b;
        in_needle = true;
      }
    }
    if (in_needle) continue;
    EXPECT_EQ(ex.ids[static_cast<std::size_t>(i)], brown[brown_seen]) << "Brown id " << brown_seen;
    ++brown_seen, ++i;
  }
  EXPECT_EQ(brown_seen, ex.haystack);
  for (const PasskeyNeedle& n : ex.needles) {
    EXPECT_EQ(offset_at[static_cast<std::size_t>(n.position)], n.offset);
    EXPECT_NEAR(n.depth, ex.haystack ? 100.0 * n.offset / ex.haystack : 0.0, 1e-12);
  }
  return static_cast<int>(ex.needles.size());
}

TEST(PasskeyTask, NamesAreDistinctCapitalisedWords) {
  const auto& names = passkey_names();
  EXPECT_EQ(names.size(), 64u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string& n : names) {
    ASSERT_FALSE(n.empty());
    EXPECT_TRUE(std::isupper(static_cast<unsigned char>(n[0]))) << n;
    for (char c : n.substr(1)) EXPECT_TRUE(std::islower(static_cast<unsigned char>(c))) << n;
  }
}

TEST(PasskeyTask, GeneratedExamplesSolveAndEveryNeedleSitsAtItsDepth) {
  int checked = 0;
  for (bool spm : {false, true}) {
    const Fixture& f = fixture(spm);
    const PasskeyCodec codec(f.tokenizer);
    for (int needles : {1, 3, 8}) {
      const int length = 500;
      codec.check_fits(length, needles);
      for (DepthPrior prior : {DepthPrior::kUniform, DepthPrior::kEnds}) {
        for (std::uint64_t i = 0; i < 6; ++i) {
          Rng rng = Rng::stream(11, i, static_cast<std::uint64_t>(needles));
          const std::int32_t* brown = f.heldout.data() + 37 * i;
          const PasskeyExample ex = draw_passkey_example(codec, brown, length, needles, prior, rng);
          checked +=
              check_example(ex, f.tokenizer, brown, length, static_cast<std::size_t>(needles));
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 2 * 6 * (1 + 3 + 8));
}

TEST(PasskeyTask, ADepthCellPutsTheQueriedNeedleAtItsDepthWhateverElseIsDrawn) {
  const Fixture& f = fixture(true);
  const PasskeyCodec codec(f.tokenizer);
  int checked = 0;
  for (int length : {200, 333}) {
    for (double depth : {0.0, 10.0, 25.0, 50.0, 70.0, 90.0, 100.0}) {
      for (std::int64_t e = 0; e < 4; ++e) {
        const PasskeyExample ex = passkey_depth_example(codec, f.heldout, length, 2, depth, e, 7);
        const int want = static_cast<int>(std::lround(depth * ex.haystack / 100.0));
        EXPECT_EQ(ex.target().offset, want) << "L " << length << " depth " << depth;
        EXPECT_LE(std::abs(ex.target().depth - depth), 50.0 / ex.haystack + 1e-9);
        EXPECT_EQ(solve_passkey(text_before_answer(ex, f.tokenizer)).answer, ex.target().number);
        const PasskeyExample again =
            passkey_depth_example(codec, f.heldout, length, 2, depth, e, 7);
        EXPECT_EQ(again.ids, ex.ids);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2 * 7 * 4);
  EXPECT_NE(passkey_depth_example(codec, f.heldout, 200, 2, 50, 0, 7).ids,
            passkey_depth_example(codec, f.heldout, 200, 2, 50, 1, 7).ids);
  EXPECT_THROW(passkey_depth_example(codec, f.heldout, 200, 2, 100.5, 0, 7), std::invalid_argument);
  EXPECT_THROW(passkey_depth_example(codec, f.heldout, 200, 2, -1, 0, 7), std::invalid_argument);
}

TEST(PasskeyTask, TheCheckerFailsOnAWrongAnswerNameOrNeedleCount) {
  const Fixture& f = fixture(true);
  const PasskeyCodec codec(f.tokenizer);
  Rng rng(3);
  const PasskeyExample ex =
      draw_passkey_example(codec, f.heldout.data(), 300, 3, DepthPrior::kUniform, rng);
  const nlohmann::json good = passkey_example_to_json(ex, f.tokenizer);
  EXPECT_FALSE(check_passkey_example(good)) << *check_passkey_example(good);
  nlohmann::json wrong = good;
  wrong["answer"] = ex.needles[1].number;  // a distractor's number
  EXPECT_TRUE(check_passkey_example(wrong));
  wrong = good;
  wrong["queried_name"] = ex.needles[1].name;
  EXPECT_TRUE(check_passkey_example(wrong));
  wrong = good;
  wrong["needles"] = 2;
  EXPECT_TRUE(check_passkey_example(wrong));
  wrong = good;  // two needles under the queried name: no unique answer
  wrong["text"] =
      "\nThe pass key of " + ex.target().name + " is 12345.\n" + good["text"].get<std::string>();
  EXPECT_TRUE(check_passkey_example(wrong));
  wrong = good;
  wrong.erase("answer");
  EXPECT_THROW(check_passkey_example(wrong), std::invalid_argument);
  // The line is read through its field table: it round-trips, and an unknown key or another
  // task is refused by name.
  EXPECT_EQ(to_json(passkey_example_line_from_json(good)), good);
  wrong = good;
  wrong["queried"] = 0;
  EXPECT_THROW(
      {
        try {
          check_passkey_example(wrong);
        } catch (const std::invalid_argument& e) {
          EXPECT_STREQ(e.what(), "unknown field 'queried'");
          throw;
        }
      },
      std::invalid_argument);
  wrong = good;
  wrong["task"] = "kv";
  EXPECT_THROW(check_passkey_example(wrong), std::invalid_argument);
}

TEST(PasskeyTask, NeedlesThatDoNotFitAreRefusedInOneLine) {
  const PasskeyCodec codec(fixture(true).tokenizer);
  try {
    codec.check_fits(40, 2);
    ADD_FAILURE() << "length 40 fits two needles and the question";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("do not fit length 40"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  // The length the message names fits, one less does not.
  const int fewest = codec.check_fits(1000, 2);
  const int fits = 1000 - fewest + 2;
  EXPECT_EQ(codec.check_fits(fits, 2), 2);
  EXPECT_THROW(codec.check_fits(fits - 1, 2), std::invalid_argument);
}

}  // namespace
