// Hop-task generators against the independent solver (task_check.cc reads only tokens), plus
// balance, determinism, the variants' guarantees, the JSONL round trip and bad specs.
#include "posbias/tasks/hop_task.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "posbias/tasks/task_check.h"

namespace posbias {
namespace {

struct Case {
  Task task;
  Variant variant;
  int length;
};

TEST(HopTask, EveryGeneratedExampleSolvesToItsAnswerAndChain) {
  const std::vector<Case> cases{
      {Task::kNumber, Variant::kStandard, 17},   {Task::kNumber, Variant::kStandard, 12},
      {Task::kNumber, Variant::kStandard, 850},  {Task::kNumber, Variant::kSeenJumps, 17},
      {Task::kNumber, Variant::kSeenJumps, 850}, {Task::kLetter, Variant::kStandard, 17},
      {Task::kLetter, Variant::kStandard, 12},   {Task::kLetter, Variant::kStandard, 850},
      {Task::kLetter, Variant::kDecoy, 15},      {Task::kLetter, Variant::kDecoy, 256}};
  for (const Case& c : cases) {
    DatasetSpec spec;
    spec.task = c.task;
    spec.variant = c.variant;
    spec.length = c.length;
    spec.count = c.length > 100 ? 200 : 2000;
    spec.seed = 7;
    for (const Example& ex : make_dataset(spec)) {
      ASSERT_EQ(ex.length(), c.length);
      ASSERT_EQ(static_cast<int>(ex.chain.size()), ex.hops);
      const auto problem = check_example(ex);
      ASSERT_FALSE(problem) << *problem << "\n" << example_to_json(ex).dump();
      // Every token is in the shared vocabulary.
      EXPECT_NO_THROW(Vocabulary::of(c.task).encode(ex.tokens));
      EXPECT_TRUE(Vocabulary::of(c.task).contains(ex.answer));
    }
  }
}

TEST(HopTask, NumberIntegersPointInsideAndSeenJumpsStayWithinTraining) {
  for (Variant v : {Variant::kStandard, Variant::kSeenJumps}) {
    DatasetSpec spec{Task::kNumber, {1, 2, 3, 4}, 850, 100, 3, v};
    int largest = 0;
    for (const Example& ex : make_dataset(spec)) {
      int letters = 0;
      for (int p = 0; p < ex.length(); ++p) {
        const std::string& t = ex.tokens[p];
        if (t[0] >= 'a') {
          ++letters;
          continue;
        }
        const int jump = std::stoi(t);
        EXPECT_GE(p - jump, 0) << "position " << p;
        largest = std::max(largest, jump);
      }
      EXPECT_EQ(letters, v == Variant::kStandard ? 8 : 9);  // seen_jumps: + position 0
    }
    if (v == Variant::kSeenJumps) {
      EXPECT_LE(largest, kSeenJumpLimit);
    } else {
      EXPECT_GT(largest, 500);
    }
  }
}

TEST(HopTask, LetterHasEightTargetsAndTheDecoyIsUnreachable) {
  DatasetSpec spec{Task::kLetter, {1, 2, 3}, 64, 300, 5, Variant::kDecoy};
  for (const Example& ex : make_dataset(spec)) {
    int targets = 0;
    for (const auto& t : ex.tokens) targets += t[2] >= '0' && t[2] <= '9';
    EXPECT_EQ(targets - (ex.tokens.back()[2] <= '9'), 8);
    ASSERT_FALSE(ex.decoy.empty());
    EXPECT_NE(ex.decoy, ex.answer);
    EXPECT_NE(ex.decoy[0], ex.answer[0]);
    // The decoy's left letter is as unique as the answer's (the shortcut the test removes).
    int same_left = 0;
    for (std::size_t p = 0; p + 1 < ex.tokens.size(); ++p)
      same_left += ex.tokens[p][0] == ex.decoy[0];
    EXPECT_EQ(same_left, 1);
    // No pair is "x:x", the query included: its own left letter never matches its look-up.
    for (const auto& t : ex.tokens) EXPECT_NE(t[0], t[2]) << t;
  }
}

TEST(HopTask, ChanceCountsTheInputsCandidateAnswers) {
  // Number: the block's 8 distinct letters; a seen_jumps input longer than 17 tokens adds the
  // letter at position 0 (a 9th unless it repeats one of the 8). Letter: its 8 targets.
  for (const Example& ex : make_dataset({Task::kNumber, {1, 2, 3, 4}, 64, 200, 3}))
    EXPECT_EQ(answer_candidates(ex), 8);
  for (const Example& ex : make_dataset({Task::kNumber, {1, 2}, 17, 100, 3}))
    EXPECT_EQ(answer_candidates(ex), 8);
  int nine = 0;
  for (const Example& ex : make_dataset({Task::kNumber, {1, 2}, 64, 200, 3, Variant::kSeenJumps})) {
    const int n = answer_candidates(ex);
    EXPECT_TRUE(n == 8 || n == 9) << n;
    nine += n == 9;
  }
  EXPECT_GT(nine, 150);  // position 0 repeats one of 120 letters' 8 about 7% of the time
  // Letter's 8 targets are distinct tokens unless two off-chain targets repeat one.
  for (Variant v : {Variant::kStandard, Variant::kDecoy}) {
    double total = 0;
    const auto examples = make_dataset({Task::kLetter, {1, 2, 3}, 64, 200, 4, v});
    for (const Example& ex : examples) {
      const int n = answer_candidates(ex);
      EXPECT_TRUE(n >= 4 && n <= 8) << n;
      std::set<std::string> targets;
      for (std::size_t p = 0; p + 1 < ex.tokens.size(); ++p) {
        if (std::isdigit(static_cast<unsigned char>(ex.tokens[p][2]))) targets.insert(ex.tokens[p]);
      }
      EXPECT_EQ(n, static_cast<int>(targets.size()));
      total += n;
    }
    EXPECT_GT(total / static_cast<double>(examples.size()), 7.5);
  }
}

TEST(HopTask, DatasetsAreBalancedOverHopsTargetsAndAnswers) {
  for (Task task : {Task::kNumber, Task::kLetter}) {
    DatasetSpec spec;
    spec.task = task;
    spec.count = task == Task::kNumber ? 4 * 8 * 120 : 4 * 16 * 80;
    spec.seed = 11;
    std::map<int, int> hops;
    std::map<std::pair<int, int>, int> targets;
    std::map<std::pair<int, std::string>, int> answers;
    for (const Example& ex : make_dataset(spec)) {
      ++hops[ex.hops];
      ++targets[{ex.hops, ex.chain.back()}];
      ++answers[{ex.hops, ex.answer}];
    }
    const int per_hop = static_cast<int>(spec.count / 4);
    for (auto [h, n] : hops) EXPECT_EQ(n, per_hop);
    const int positions = target_positions(task, spec.length);
    EXPECT_EQ(static_cast<int>(targets.size()), 4 * positions);
    for (auto [k, n] : targets) EXPECT_EQ(n, per_hop / positions);
    EXPECT_EQ(static_cast<int>(answers.size()), 4 * answer_count(task));
    for (auto [k, n] : answers) EXPECT_EQ(n, per_hop / answer_count(task));
  }
}

TEST(HopTask, SameSeedSameExamplesAndBatchesKeyedByStepAndSliced) {
  DatasetSpec spec{Task::kLetter, {1, 2, 3, 4}, 17, 50, 42, Variant::kStandard};
  const auto a = make_dataset(spec), b = make_dataset(spec);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].tokens, b[i].tokens);
  spec.seed = 43;
  EXPECT_NE(make_dataset(spec)[0].tokens, a[0].tokens);
  const auto s1 = sample_batch(Task::kNumber, {1, 2, 3, 4}, 17, 8, 1, 5, 0);
  EXPECT_EQ(sample_batch(Task::kNumber, {1, 2, 3, 4}, 17, 8, 1, 5, 0)[7].tokens, s1[7].tokens);
  EXPECT_NE(sample_batch(Task::kNumber, {1, 2, 3, 4}, 17, 8, 1, 6, 0)[0].tokens, s1[0].tokens);
  // A rank's slice of the global batch is those examples of it, whatever the slice.
  for (const std::int64_t first : {1, 3, 6}) {
    const auto slice = sample_batch(Task::kNumber, {1, 2, 3, 4}, 17, 8 - first, 1, 5, first);
    ASSERT_EQ(slice.size(), static_cast<std::size_t>(8 - first));
    for (std::size_t i = 0; i < slice.size(); ++i)
      EXPECT_EQ(slice[i].tokens, s1[i + static_cast<std::size_t>(first)].tokens) << first;
  }
}

TEST(HopTask, SolverRejectsBrokenExamples) {
  DatasetSpec spec{Task::kLetter, {2}, 17, 1, 1, Variant::kStandard};
  Example ex = make_dataset(spec)[0];
  Example wrong = ex;
  wrong.answer = wrong.answer == "a:0" ? "a:1" : "a:0";
  EXPECT_TRUE(check_example(wrong));
  Example ambiguous = ex;  // a second token with the first look-up's left letter
  const char want = ex.tokens.back()[2];
  for (std::size_t p = 0; p + 1 < ex.tokens.size(); ++p) {
    if (static_cast<int>(p) != ex.chain[0] && static_cast<int>(p) != ex.chain[1]) {
      ambiguous.tokens[p][0] = want;
      break;
    }
  }
  const auto why = check_example(ambiguous);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("matches positions"), std::string::npos) << *why;

  DatasetSpec nspec{Task::kNumber, {1}, 17, 1, 1, Variant::kStandard};
  Example n = make_dataset(nspec)[0];
  n.tokens.back() = "17";  // jumps before the start
  EXPECT_TRUE(check_example(n));
  n.tokens.back() = "zz";
  EXPECT_TRUE(check_example(n));
}

TEST(HopTask, JsonRoundTripAndFieldErrors) {
  DatasetSpec spec{Task::kLetter, {3}, 20, 3, 9, Variant::kDecoy};
  for (const Example& ex : make_dataset(spec)) {
    const nlohmann::json j = example_to_json(ex);
    for (const char* f : {"task", "hops", "length", "tokens", "answer", "chain"}) {
      EXPECT_TRUE(j.contains(f)) << f;
    }
    const Example back = example_from_json(nlohmann::json::parse(j.dump()));
    EXPECT_EQ(back.tokens, ex.tokens);
    EXPECT_EQ(back.chain, ex.chain);
    EXPECT_EQ(back.decoy, ex.decoy);
    EXPECT_EQ(back.variant, ex.variant);
  }
  EXPECT_THROW(example_from_json(nlohmann::json::parse(R"({"task":"number"})")),
               std::invalid_argument);
  EXPECT_THROW(example_from_json(nlohmann::json::parse(
                   R"({"task":"x","hops":1,"length":1,"tokens":["a"],"answer":"a","chain":[0]})")),
               std::invalid_argument);
}

// A number outside its range says so, with the range (2 000 000 tokens was "not an integer").
TEST(HopTask, ExampleNumbersOutOfRangeNameTheRange) {
  auto message = [](const std::string& text) {
    try {
      example_from_json(nlohmann::json::parse(text));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string tail = R"(,"tokens":["a:1","b:a","b:2"],"answer":"a:1","chain":[0]})";
  EXPECT_EQ(message(R"({"task":"letter","hops":1,"length":2000000)" + tail),
            "field 'length' is 2000000, out of range: it must be in 0..1000000");
  EXPECT_EQ(message(R"({"task":"letter","hops":0,"length":3)" + tail),
            "field 'hops' is 0, out of range: it must be in 1..4");
  EXPECT_EQ(message(R"({"task":"letter","hops":18446744073709551615,"length":3)" + tail),
            "field 'hops' is 18446744073709551615, out of range: it must be in 1..4");
  EXPECT_EQ(message(R"({"task":"letter","hops":1.5,"length":3)" + tail),
            "field 'hops' must be an integer, got 1.5");
  EXPECT_EQ(message(R"({"task":"letter","hops":1,"length":3)" + tail), "accepted");
  // The line is read through its field table: an unknown key or a wrong count is named.
  EXPECT_EQ(message(R"({"task":"letter","hops":1,"length":3,"hop":2)" + tail),
            "unknown field 'hop'");
  EXPECT_EQ(message(R"({"task":"letter","hops":1,"length":4)" + tail),
            "'length' differs from the number of tokens");
  EXPECT_EQ(message(R"({"task":"letter","hops":1,"length":3,"chain":[-1]})"),
            "field 'chain.0' is -1, out of range: it must be in 0..999999");
  EXPECT_EQ(message(R"({"task":"text","hops":1,"length":3)" + tail).substr(0, 14),
            "a hop example ");
}

TEST(HopTask, BadSpecsNameTheProblem) {
  EXPECT_THROW(validate_spec(Task::kNumber, 0, 17, Variant::kStandard), std::invalid_argument);
  EXPECT_THROW(validate_spec(Task::kNumber, 5, 17, Variant::kStandard), std::invalid_argument);
  EXPECT_THROW(validate_spec(Task::kLetter, 4, 11, Variant::kStandard), std::invalid_argument);
  EXPECT_NO_THROW(validate_spec(Task::kLetter, 4, 12, Variant::kStandard));
  EXPECT_NO_THROW(validate_spec(Task::kNumber, 1, 1025, Variant::kStandard));
  EXPECT_THROW(validate_model_length(Task::kNumber, 1025), std::invalid_argument);
  EXPECT_NO_THROW(validate_model_length(Task::kLetter, 4096));
  EXPECT_THROW(validate_spec(Task::kNumber, 1, 1'000'001, Variant::kStandard),
               std::invalid_argument);
  EXPECT_THROW(validate_spec(Task::kNumber, 1, 17, Variant::kDecoy), std::invalid_argument);
  EXPECT_THROW(validate_spec(Task::kLetter, 1, 17, Variant::kSeenJumps), std::invalid_argument);
  EXPECT_THROW(parse_task("words"), std::invalid_argument);
  try {
    validate_spec(Task::kNumber, 3, 10, Variant::kStandard);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("need at least 11"), std::string::npos) << e.what();
  }
}

TEST(HopTask, VocabulariesMatchTheDesign) {
  const Vocabulary& n = Vocabulary::of(Task::kNumber);
  EXPECT_EQ(n.size(), 1 + 1024 + 120);
  EXPECT_EQ(n.id("<pad>"), 0);
  EXPECT_EQ(n.id("7"), 7);
  EXPECT_EQ(n.id("a"), 1025);
  EXPECT_EQ(n.token(1025 + 26), "aa");
  EXPECT_EQ(number_letter(119), "dp");
  const Vocabulary& l = Vocabulary::of(Task::kLetter);
  EXPECT_EQ(l.size(), 1 + 8 * 18);
  EXPECT_EQ(l.id("a:a"), 1);
  EXPECT_EQ(l.id("a:0"), 9);
  EXPECT_EQ(l.id("h:9"), 144);
  EXPECT_THROW(l.id("i:a"), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
