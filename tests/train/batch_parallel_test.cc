// The batch-parallel training step (train/trainer.h batch_shards): a shard's dropout masks are
// its rows of the whole batch's, and a step split into shards gives the whole batch's loss and
// update up to summation order, and the same numbers when run again.
#include <gtest/gtest.h>

#include "posbias/model/dropout.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

PositionContext context(std::uint64_t seed, std::int64_t row_begin, std::int64_t rows_total) {
  PositionContext pos;
  pos.dropout =
      std::make_shared<DropoutSource>(DropoutSource{Rng(seed), 0.3, row_begin, rows_total});
  return pos;
}

TEST(BatchParallelDropout, ShardMasksAreRowsOfTheWholeBatchsMasks) {
  // 3·7 = 21 elements a row: shards start in the middle of a draw's four lanes.
  const PositionContext whole = context(5, 0, 0);
  const torch::Tensor first = dropout_mask({6, 3, 7}, whole),
                      second = dropout_mask({6, 3, 7}, whole);
  for (const auto& [begin, end] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 3}, {3, 6}, {1, 2}, {5, 6}, {0, 6}}) {
    const PositionContext shard = context(5, begin, 6);
    const torch::Tensor a = dropout_mask({end - begin, 3, 7}, shard);
    const torch::Tensor b = dropout_mask({end - begin, 3, 7}, shard);  // the stream moved past
    EXPECT_TRUE(torch::equal(a, first.slice(0, begin, end))) << begin << ".." << end;
    EXPECT_TRUE(torch::equal(b, second.slice(0, begin, end))) << begin << ".." << end;
  }
}

TrainConfig tiny_hop(Task task) {
  TrainConfig c = TrainConfig::defaults(task);
  c.layers = 2, c.d_model = 32, c.heads = 2, c.mlp = 64, c.batch = 10, c.steps = 20, c.warmup = 2;
  c.dropout = 0.1;
  c.finalize();
  return c;
}

// Three steps of a trainer with `shards` shards: the losses, then the weights.
std::pair<std::vector<double>, torch::Tensor> train(const TrainConfig& c, int shards) {
  Trainer t(c);
  t.shards = shards;
  std::vector<double> losses;
  for (std::int64_t step = 1; step <= 3; ++step) losses.push_back(t.step(step));
  return {losses, t.flat->params.clone()};
}

TEST(BatchParallelTrain, ShardedStepsEqualTheWholeBatchsUpToRounding) {
  for (Task task : {Task::kNumber, Task::kLetter}) {
    TrainConfig c = tiny_hop(task);
    if (task == Task::kLetter) c.random_positions = 64;  // the shards' rows of the position ids
    const auto [whole_losses, whole] = train(c, 1);
    const auto [losses, params] = train(c, 2);
    const auto [again_losses, again] = train(c, 2);
    const auto [three_losses, three] = train(c, 3);  // shards of 3, 3 and 4 examples
    for (std::size_t i = 0; i < losses.size(); ++i) {
      EXPECT_NEAR(losses[i], whole_losses[i], 1e-5 * std::abs(whole_losses[i])) << i;
      EXPECT_NEAR(three_losses[i], whole_losses[i], 1e-5 * std::abs(whole_losses[i])) << i;
      EXPECT_EQ(again_losses[i], losses[i]) << "the same seed, the same numbers";
    }
    EXPECT_TRUE(torch::allclose(params, whole, 1e-4, 1e-5));
    EXPECT_TRUE(torch::allclose(three, whole, 1e-4, 1e-5));
    EXPECT_TRUE(torch::equal(again, params)) << "the same seed, the same numbers";
  }
}

TEST(BatchParallelTrain, ShardsOnlyAHopStepWithTwoThreadsAndTwoExamplesEach) {
  TrainConfig c = tiny_hop(Task::kNumber);
  EXPECT_EQ(batch_shards(c, 2, false), 2);
  EXPECT_EQ(batch_shards(c, 1, false), 1);
  EXPECT_EQ(batch_shards(c, 2, true), 1) << "data-parallel ranks";
  EXPECT_EQ(batch_shards(c, 6, false), 1) << "fewer than 2 examples a thread";
  c.precision = Precision::kBf16;
  EXPECT_EQ(batch_shards(c, 2, false), 1);
  EXPECT_EQ(batch_shards(TrainConfig::defaults(Task::kKv), 2, false), 1);
}

}  // namespace
}  // namespace posbias
