// Kv runs (`train --task kv`): the batch encoding against the examples' tokens, the training
// draws (pair counts in range, a rank's slice equal to the whole batch's, the depth prior),
// the loss against a cross-entropy computed from the full logits, exact match against a greedy
// decode done token by token, --length-max (each step's length drawn, the pair range kept,
// every example solved by `tasks check`, a range of one length the same run as none, the table
// sized for the longest), the run as a user meets it (metrics, a killed run resuming exactly, a
// learned-position table sized for the answer), and bad input in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "../cli_run.h"
#include "kill_while_training.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_kv_train", name); }

TrainConfig tiny_kv(int length = 40) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.layers = 2, c.d_model = 16, c.heads = 2, c.mlp = 32, c.length = length, c.batch = 8;
  c.steps = 4, c.warmup = 1, c.eval_every = 2, c.checkpoint_every = 2, c.log_checkpoints = 0;
  c.finalize();
  return c;
}

TEST(KvBatch, EncodesTheTokensThenTheValueAndTargetsTheValue) {
  const TrainConfig c = tiny_kv();
  const std::vector<KvExample> examples = sample_kv_batch(c, 5, 3);
  const KvBatch b = encode_kv_examples(examples, false);
  ASSERT_EQ(b.ids.sizes(), (std::vector<std::int64_t>{5, 42}));
  ASSERT_EQ(b.answers.sizes(), (std::vector<std::int64_t>{5, 3}));
  const std::vector<std::string>& vocab = kv_vocabulary();
  for (std::int64_t r = 0; r < 5; ++r) {
    const KvExample& ex = examples[static_cast<std::size_t>(r)];
    for (int t = 0; t < 40; ++t) EXPECT_EQ(vocab[b.ids[r][t].item<std::int64_t>()], ex.tokens[t]);
    // The answer "d d d" as written by the generator, read back from the targets.
    std::string answer;
    for (int v = 0; v < 3; ++v)
      answer += (v ? " " : "") + vocab[b.answers[r][v].item<std::int64_t>()];
    EXPECT_EQ(answer, ex.answer);
    EXPECT_EQ(b.ids[r][40].item<std::int64_t>(), b.answers[r][0].item<std::int64_t>());
    EXPECT_EQ(b.ids[r][41].item<std::int64_t>(), b.answers[r][1].item<std::int64_t>());
  }
}

TEST(KvBatch, DrawsPairCountsInRangeAndARankSliceOfTheWholeBatch) {
  TrainConfig c = tiny_kv(100);  // up to 16 pairs
  c.pairs_min = 3, c.pairs_max = 9;
  const std::vector<KvExample> all = sample_kv_batch(c, 400, 7);
  std::set<int> counts;
  for (const KvExample& ex : all) {
    counts.insert(ex.pairs);
    EXPECT_EQ(ex.length(), 100);
    const int fillers = 100 - 4 - 6 * ex.pairs;  // before the first pair; pairs end at the query
    for (int t = 0; t < fillers; ++t) EXPECT_EQ(ex.tokens[t], "_");
    EXPECT_NE(ex.tokens[fillers], "_");
    EXPECT_EQ(ex.tokens[96], "?");
  }
  EXPECT_EQ(*counts.begin(), 3);
  EXPECT_EQ(*counts.rbegin(), 9);
  EXPECT_EQ(counts.size(), 7u);
  const std::vector<KvExample> slice = sample_kv_batch(c, 10, 7, 100);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(slice[i].tokens, all[100 + i].tokens);
  EXPECT_NE(sample_kv_batch(c, 1, 8)[0].tokens, all[0].tokens);  // another step, another draw
}

TEST(KvBatch, LengthMaxDrawsEachStepsLengthAndKeepsThePairRange) {
  TrainConfig c = tiny_kv(32);  // 2..4 pairs
  c.length_max = 37;            // every residue mod 6, so the pairs' slots shift
  c.finalize();
  EXPECT_EQ(c.model_config().max_positions, 39);  // the longest example and two answer tokens
  std::set<int> lengths, pairs, first_pair_at;
  std::vector<KvExample> drawn;
  for (std::uint64_t step = 1; step <= 120; ++step) {
    const std::vector<KvExample> batch = sample_kv_batch(c, 8, step);
    const int length = c.step_length(static_cast<std::int64_t>(step));
    lengths.insert(length);
    for (const KvExample& ex : batch) {
      ASSERT_EQ(ex.length(), length);  // one length per step, the step's
      pairs.insert(ex.pairs);
      const int fillers = length - 4 - 6 * ex.pairs;  // pairs still end at the query
      first_pair_at.insert(fillers % 6);
      for (int t = 0; t < fillers; ++t) EXPECT_EQ(ex.tokens[t], "_");
      EXPECT_NE(ex.tokens[fillers], "_");
      EXPECT_EQ(ex.tokens[length - 4], "?");
    }
    drawn.insert(drawn.end(), batch.begin(), batch.end());
  }
  EXPECT_EQ(lengths, (std::set<int>{32, 33, 34, 35, 36, 37}));
  EXPECT_EQ(pairs, (std::set<int>{2, 3, 4}));  // the range at --length, not at the step's
  EXPECT_EQ(first_pair_at.size(), 6u);         // the slots sit at every offset mod 6
  // `tasks check`'s independent solver accepts every example at every length.
  const fs::path file = scratch("length_max.jsonl");
  {
    std::ofstream out(file);
    for (const KvExample& ex : drawn) out << kv_example_to_json(ex).dump() << "\n";
  }
  const CliResult check = run_cli("tasks check " + file.string(), 120);
  EXPECT_EQ(check.code, 0) << check.err;
  // A rank's slice is the whole batch's, at the same length.
  const std::vector<KvExample> all = sample_kv_batch(c, 8, 5), slice = sample_kv_batch(c, 3, 5, 4);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(slice[i].tokens, all[4 + i].tokens);
  // length_max equal to the length draws exactly what no length_max draws.
  TrainConfig fixed = tiny_kv(32), ranged = tiny_kv(32);
  ranged.length_max = 32;
  for (std::uint64_t step = 1; step <= 5; ++step) {
    const std::vector<KvExample> a = sample_kv_batch(fixed, 4, step),
                                 b = sample_kv_batch(ranged, 4, step);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(a[i].tokens, b[i].tokens);
  }
}

TEST(KvBatch, TheEndsPriorQueriesTheEndsMoreOften) {
  TrainConfig c = tiny_kv(124);  // 20 pairs, always
  c.pairs_min = 20;
  auto ends_share = [&c] {
    int ends = 0;
    const std::vector<KvExample> all = sample_kv_batch(c, 4000, 1);
    for (const KvExample& ex : all) ends += ex.depth <= 10 || ex.depth >= 90;
    return ends / 4000.0;
  };
  const double uniform = ends_share();
  c.depth_prior = DepthPrior::kEnds;
  const double ends = ends_share();
  EXPECT_NEAR(uniform, 4 / 20.0, 0.03);  // pairs 0, 1 (depth 5.3%), 18 (94.7%) and 19
  EXPECT_GT(ends, 1.5 * uniform);
}

TEST(KvBatch, LossAndExactMatchAgreeWithTheFullLogitsAndAGreedyDecode) {
  const TrainConfig c = tiny_kv();
  torch::manual_seed(0);
  Transformer model(c.model_config());
  model->init_weights(3);
  model->eval();
  const std::vector<KvExample> examples = sample_kv_batch(c, 6, 1);
  const KvBatch b = encode_kv_examples(examples, false);
  torch::NoGradGuard no_grad;
  const torch::Tensor logits = model->forward(b.ids);  // [6, 42, V]
  double ce = 0;
  for (std::int64_t r = 0; r < 6; ++r)
    for (int v = 0; v < 3; ++v)
      ce -= torch::log_softmax(logits[r][39 + v], 0)[b.answers[r][v]].item<double>();
  EXPECT_NEAR(kv_loss(model, b).item<double>(), ce / 18, 1e-5);

  // Exact match: the argmax of the full logits at positions 39, 40 and 41 against the value.
  const std::vector<bool> fast = kv_exact_matches(model, examples, 4, false);
  ASSERT_EQ(fast.size(), 6u);
  const torch::Tensor argmax = logits.slice(1, 39, 42).argmax(2);  // [6, 3]
  for (std::int64_t r = 0; r < 6; ++r)
    EXPECT_EQ(fast[static_cast<std::size_t>(r)], argmax[r].eq(b.answers[r]).all().item<bool>());
  // The teacher-forced argmax is the greedy decode: the first token from the example alone.
  const torch::Tensor first = model->forward(b.ids.slice(1, 0, 40)).select(1, 39).argmax(1);
  EXPECT_TRUE(first.equal(argmax.select(1, 0)));
}

TEST(KvTrain, LogsExactMatchAndAKilledRunResumesExactly) {
  const fs::path whole = scratch("whole"), killed = scratch("killed");
  const std::string config = tiny_kv_flags(2, 12) + "--pos learned --arch gpt2 ";
  const CliResult r = run_cli(config + "--out " + whole.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = metrics_without_timing(whole);
  ASSERT_EQ(a.size(), 7u);  // steps 0, 2, ..., 12
  for (const auto& row : a) {
    const double acc = row["acc"]["all"].get<double>();
    EXPECT_TRUE(acc >= 0 && acc <= 1);
  }
  // The loss starts near ln 39 (a uniform guess over the vocabulary) and falls.
  EXPECT_LT(a.back()["loss"].get<double>(), a[1]["loss"].get<double>());
  const nlohmann::json header = nlohmann::json::parse(slurp(whole / "config.json"));
  EXPECT_EQ(header["n_positions"].get<int>(), 42);  // the example and two answer tokens
  const int kills =
      kill_while_training(std::string(POSBIAS_BIN) + " " + config + "--out " + killed.string(),
                          std::string(POSBIAS_BIN) + " train --resume " + killed.string(), killed);
  EXPECT_GE(kills, 1);
  ASSERT_EQ(run_cli("train --resume " + killed.string(), 300).code, 0);
  const auto b = metrics_without_timing(killed);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "metrics line " << i;
  EXPECT_EQ(slurp(whole / "model.safetensors"), slurp(killed / "model.safetensors"));
}

TEST(KvTrain, LengthMaxTrainsAtTheLongestLengthAndEvaluatesAtTheLength) {
  const std::string config = tiny_kv_flags(2, 6) + "--pos learned --arch gpt2 ";
  const fs::path plain = scratch("plain"), same = scratch("same"), ranged = scratch("ranged");
  ASSERT_EQ(run_cli(config + "--out " + plain.string(), 300).code, 0);
  // A range of one length is the run without one, step for step.
  const CliResult r = run_cli(config + "--length-max 40 --out " + same.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(metrics_without_timing(plain), metrics_without_timing(same));
  const CliResult wide = run_cli(config + "--length-max 52 --out " + ranged.string(), 300);
  ASSERT_EQ(wide.code, 0) << wide.err;
  const nlohmann::json header = nlohmann::json::parse(slurp(ranged / "config.json"));
  EXPECT_EQ(header["n_positions"].get<int>(), 54);  // the longest example and two answer tokens
  EXPECT_EQ(nlohmann::json::parse(slurp(ranged / "train.json"))["config"]["length_max"], 52);
  EXPECT_NE(metrics_without_timing(plain).back()["loss"],
            metrics_without_timing(ranged).back()["loss"]);
  // eval reaches the table's length and refuses one past it.
  const CliResult in_table =
      run_cli("eval --run " + ranged.string() + " --lengths 40,52 --depths 0,100 --count 2", 300);
  EXPECT_EQ(in_table.code, 0) << in_table.err;
  const CliResult past =
      run_cli("eval --run " + ranged.string() + " --lengths 53 --depths 0 --count 2", 60);
  EXPECT_EQ(past.code, 2) << past.err;
  EXPECT_NE(past.err.find("learned position table"), std::string::npos) << past.err;
}

// Each refused for its own reason (the message says it), not for a flag given twice.
TEST(KvTrain, BadInputGetsOneLine) {
  const fs::path out = scratch("bad");
  const int length = kTinyKvLength;  // 40: up to 6 pairs
  const std::tuple<int, std::string, std::string> cases[] = {
      {15, "", "length 15 fits fewer than 2 kv pairs"},
      {length, "--pairs-max 7", "pairs_max must be in 0..6"},
      {length, "--pairs-min 1", "pairs_min must be in 2..6"},
      {length, "--pairs-min 5 --pairs-max 4", "pairs_min must be in 2..4"},
      {length, "--depth-prior middle", "unknown depth prior 'middle'"},
      {length, "--window -1", "window must be in 0..2^30"},
      {length, "--length-max 39", "length_max must be 0 or in 40.."},
      {length, "--length-max 200000", "length_max must be 0 or in 40.."}};
  for (const auto& [l, flags, says] : cases) {
    const CliResult r = run_cli(tiny_kv_flags(2, 2, l) + flags + " --out " + out.string(), 60);
    EXPECT_EQ(r.code, 2) << flags << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << flags << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << flags << ": " << r.err;
    EXPECT_FALSE(fs::exists(out / "train.json")) << flags;
  }
  const CliResult hop =
      run_cli("train --task number --depth-prior ends --steps 2 --out " + out.string(), 60);
  EXPECT_EQ(hop.code, 2) << hop.err;
  EXPECT_NE(hop.err.find("for --task kv"), std::string::npos) << hop.err;
}

}  // namespace
