// Hop evaluation a batch at a time against the whole set at once (the reference: every example
// held, as make_dataset returns them): the same batches, ids, answers and accuracy, whatever
// the batch size, so streaming changes the peak memory and nothing else.
#include "posbias/train/hop_eval.h"

#include <gtest/gtest.h>

#include "posbias/runfiles/train_config.h"

namespace posbias {
namespace {

TEST(HopEval, BatchesAreTheDatasetInOrder) {
  const DatasetSpec spec{Task::kLetter, {1, 2}, 40, 23, 7, Variant::kDecoy};
  const std::vector<Example> whole = make_dataset(spec);
  std::vector<Example> streamed;
  std::vector<std::size_t> sizes;
  for_each_batch(spec, 5, [&](const std::vector<Example>& batch) {
    sizes.push_back(batch.size());
    streamed.insert(streamed.end(), batch.begin(), batch.end());
  });
  EXPECT_EQ(sizes, (std::vector<std::size_t>{5, 5, 5, 5, 3}));
  ASSERT_EQ(streamed.size(), whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(streamed[i].tokens, whole[i].tokens) << i;
    EXPECT_EQ(streamed[i].answer, whole[i].answer) << i;
    EXPECT_EQ(streamed[i].chain, whole[i].chain) << i;
  }
  EXPECT_THROW(for_each_batch(spec, 0, [](const std::vector<Example>&) {}), std::invalid_argument);
}

TEST(HopEval, EncodedDatasetEqualsEncodingTheExamples) {
  for (Task task : {Task::kNumber, Task::kLetter}) {
    const DatasetSpec spec{task, {1, 2, 3}, 48, 31, 3, Variant::kStandard};
    const std::vector<Example> whole = make_dataset(spec);
    const HopBatch reference = encode_examples(whole, 0, whole.size());
    const HopBatch streamed = encode_dataset(spec);
    EXPECT_TRUE(torch::equal(streamed.ids, reference.ids)) << task_name(task);
    EXPECT_TRUE(torch::equal(streamed.answers, reference.answers)) << task_name(task);
  }
  // One std::string and one int64 per token.
  EXPECT_EQ(hop_examples_bytes(10, 100), 10.0 * 100 * (sizeof(std::string) + 8));
}

// A one-layer Letter model with its weights drawn from `seed`.
Transformer small_letter_model(std::uint64_t seed) {
  TrainConfig c = TrainConfig::defaults(Task::kLetter);
  c.layers = 1, c.d_model = 16, c.heads = 2, c.mlp = 32, c.rotary_dim = 8, c.dropout = 0;
  c.finalize();
  Transformer model(c.model_config());
  model->init_weights(seed);
  return model;
}

TEST(HopEval, StreamedAccuracyEqualsTheWholeSet) {
  Transformer model = small_letter_model(5);
  for (Variant variant : {Variant::kStandard, Variant::kDecoy}) {
    const DatasetSpec spec{Task::kLetter, {1, 2}, 30, 57, 11, variant};
    const HopAccuracy whole = evaluate_hops(model, make_dataset(spec), 8);
    const HopAccuracy streamed = evaluate_hops(model, spec, 8);
    EXPECT_EQ(streamed.total, whole.total);
    EXPECT_EQ(streamed.correct, whole.correct);
    EXPECT_EQ(streamed.chance_sum, whole.chance_sum);  // summed in the same order
    EXPECT_EQ(streamed.decoy_picks, whole.decoy_picks);
    EXPECT_EQ(streamed.total.at(1) + streamed.total.at(2), 57);
  }
}

// `eval --hops H`'s pieces: each hop scored alone (in batches of its own examples only) is that
// hop's share of the whole evaluation, example for example, so pieces join into the whole.
TEST(HopEval, HopsScoredAloneAreTheirShareOfTheWhole) {
  Transformer model = small_letter_model(9);
  {  // weights far from init's scale: answers that vary with the input, some of them right
    torch::NoGradGuard no_grad;
    for (torch::Tensor& p : model->parameters()) p.mul_(6.0);
  }
  const DatasetSpec spec{Task::kLetter, {1, 2, 3}, 30, 60, 4, Variant::kDecoy};
  const HopAccuracy whole = evaluate_hops(model, spec, 8);
  std::int64_t decoy_picks = 0;
  for (const std::vector<int>& hops : {std::vector<int>{1}, {2, 3}}) {
    const HopAccuracy piece = evaluate_hops(model, spec, 8, hops);
    ASSERT_EQ(piece.total.size(), hops.size());
    for (int h : hops) {
      EXPECT_EQ(piece.total.at(h), 20) << h;
      EXPECT_EQ(piece.correct.at(h), whole.correct.at(h)) << h;
      EXPECT_EQ(piece.chance_sum.at(h), whole.chance_sum.at(h)) << h;
    }
    decoy_picks += piece.decoy_picks;
  }
  EXPECT_EQ(decoy_picks, whole.decoy_picks);
  // Not vacuous: the model gets some right and some wrong.
  EXPECT_GT(whole.all(), 0.0);
  EXPECT_LT(whole.all(), 1.0);
}

TEST(HopTraining, LengthMaxDrawsEveryLengthOfItsRangeForAStep) {
  TrainConfig c;
  c.length = 17;
  c.length_max = 40;
  c.seed = 3;
  std::vector<int> seen(41, 0);
  for (std::int64_t step = 1; step <= 4800; ++step) {
    const int n = c.step_length(step);
    ASSERT_GE(n, 17);
    ASSERT_LE(n, 40);
    ++seen[static_cast<std::size_t>(n)];
    EXPECT_EQ(c.step_length(step), n);  // the same step, the same length (every rank agrees)
  }
  // Uniform: 4800 draws over 24 lengths, 200 expected each; none far from it.
  for (int n = 17; n <= 40; ++n) {
    EXPECT_GT(seen[static_cast<std::size_t>(n)], 140) << n;
    EXPECT_LT(seen[static_cast<std::size_t>(n)], 260) << n;
  }
  EXPECT_EQ(c.longest_length(), 40);
  c.length_max = 0;
  EXPECT_EQ(c.step_length(7), 17);
  EXPECT_EQ(c.longest_length(), 17);
  TrainConfig other = c;
  other.length_max = 40;
  other.seed = 4;  // another seed draws another sequence
  c.length_max = 40;
  int same = 0;
  for (std::int64_t step = 1; step <= 200; ++step)
    same += c.step_length(step) == other.step_length(step);
  EXPECT_LT(same, 40);
}

}  // namespace
}  // namespace posbias
