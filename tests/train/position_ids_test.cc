// Training position ids (train/position_ids.h): randomized positions (`train --random-positions
// N`) draw sorted, distinct ids in 0..N−1 that cover the range uniformly (each id with
// probability L/N, which ids 0..L−1 fail), the same for a seed, step and example on any rank;
// PoSE's (`train --pose N`) two contiguous chunks with the documented first-chunk length and
// skip. The model: RoPE at ids p equals q and k rotated by hand at angles p·θ^(−2k/d) (halves
// and interleaved layouts); a learned model reads rows p of its table; ids 0..L−1 given are the
// plain model. Training: N equal to the input's width draws 0..L−1 every time, so the losses are
// the run without the option, bit for bit; a wider N changes them; evaluation runs on 0..L−1.
// The run as a user meets it: train.json records the option only when set, a learned table gets
// N rows and eval reaches them; bad input gets one line and exit 2.
#include "posbias/train/position_ids.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "../cli_run.h"
#include "../tiny_model.h"
#include "posbias/model/transformer.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_position_ids", name); }

TEST(RandomPositions, IdsAreSortedDistinctAndWithinTheRange) {
  Rng rng(5);
  for (int draw = 0; draw < 500; ++draw) {
    const std::vector<std::int64_t> ids = random_position_ids(10, 40, rng);
    ASSERT_EQ(ids.size(), 10u);
    for (std::size_t t = 0; t < ids.size(); ++t) {
      EXPECT_GE(ids[t], 0);
      EXPECT_LT(ids[t], 40);
      if (t > 0) {
        EXPECT_LT(ids[t - 1], ids[t]) << "sorted and distinct";
      }
    }
  }
  // N = L leaves one subset: 0..L−1.
  const std::vector<std::int64_t> all = random_position_ids(7, 7, rng);
  EXPECT_EQ(all, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
}

// Every subset equally likely makes each id's probability L/N: over many draws every id of
// 0..N−1 appears about L/N of the time, the last ones included (ids 0..L−1 would give 1 for
// the first L and 0 for the rest), and the largest id is N−1 in a fraction 1 − (N−L)/N = L/N.
TEST(RandomPositions, CoverTheRangeUniformly) {
  const std::int64_t length = 8, range = 32, draws = 20000;
  std::vector<std::int64_t> hits(range, 0);
  Rng rng(11);
  for (std::int64_t d = 0; d < draws; ++d)
    for (std::int64_t id : random_position_ids(length, range, rng)) ++hits[id];
  const double expected = static_cast<double>(length) / static_cast<double>(range);
  for (std::int64_t id = 0; id < range; ++id) {
    const double p = static_cast<double>(hits[id]) / static_cast<double>(draws);
    EXPECT_NEAR(p, expected, 0.015) << "id " << id;  // sd of p is about 0.003
  }
}

TEST(Pose, TwoContiguousChunksWithTheDocumentedSkip) {
  const std::int64_t length = 9, range = 30;
  std::set<std::int64_t> firsts, skips;
  Rng rng(3);
  for (int draw = 0; draw < 4000; ++draw) {
    Rng copy = rng;
    const PoseChunks c = pose_chunks(length, range, copy);
    const std::vector<std::int64_t> ids = pose_position_ids(length, range, rng);
    ASSERT_EQ(ids.size(), static_cast<std::size_t>(length));
    ASSERT_GE(c.first, 1);
    ASSERT_LE(c.first, (length + 1) / 2);
    ASSERT_GE(c.skip, 0);
    ASSERT_LE(c.skip, range - length);
    for (std::int64_t t = 0; t < length; ++t)  // 0..a−1, then a+u..L−1+u
      EXPECT_EQ(ids[static_cast<std::size_t>(t)], t < c.first ? t : t + c.skip) << t;
    EXPECT_LE(ids.back(), range - 1);
    firsts.insert(c.first), skips.insert(c.skip);
  }
  EXPECT_EQ(firsts.size(), static_cast<std::size_t>((length + 1) / 2));   // every a drawn
  EXPECT_EQ(skips.size(), static_cast<std::size_t>(range - length + 1));  // every u, 0 and N−L
}

TrainConfig tiny_kv() {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.layers = 2, c.d_model = 16, c.heads = 2, c.mlp = 32, c.length = 40, c.batch = 8;
  c.steps = 4, c.warmup = 1, c.eval_every = 2, c.checkpoint_every = 2, c.log_checkpoints = 0;
  return c;
}

TEST(TrainingPositionIds, DeterministicByKeyAndTheSameOnEveryRank) {
  TrainConfig c = tiny_kv();
  EXPECT_FALSE(training_position_ids(c, 4, 42, 1, 0).defined()) << "unset: none";
  c.random_positions = 160;
  c.finalize();
  const torch::Tensor a = training_position_ids(c, 4, 42, 3, 0);
  ASSERT_EQ(a.sizes(), (std::vector<std::int64_t>{4, 42}));
  EXPECT_TRUE(torch::equal(a, training_position_ids(c, 4, 42, 3, 0)));
  // A rank's slice (examples 2 and 3) is the whole batch's rows 2 and 3.
  EXPECT_TRUE(torch::equal(a.slice(0, 2, 4), training_position_ids(c, 2, 42, 3, 2)));
  EXPECT_FALSE(torch::equal(a, training_position_ids(c, 4, 42, 4, 0))) << "another step";
  EXPECT_FALSE(torch::equal(a[0], a[1])) << "another example";
  TrainConfig other = c;
  other.seed = 1;
  EXPECT_FALSE(torch::equal(a, training_position_ids(other, 4, 42, 3, 0))) << "another seed";
  TrainConfig pose = tiny_kv();
  pose.pose = 160;
  pose.finalize();
  const torch::Tensor p = training_position_ids(pose, 4, 42, 3, 0);
  EXPECT_TRUE(torch::equal(p, training_position_ids(pose, 4, 42, 3, 0)));
  EXPECT_EQ(p[0][0].item<std::int64_t>(), 0);  // the first chunk starts at 0
}

// Rotates x [E] by hand: pairs (k, k + R/2) (halves) or (2k, 2k + 1) (interleaved) of the first
// R dims by p·θ^(−2k/R).
std::vector<double> rotate_by_hand(const torch::Tensor& x, double p, std::int64_t r, double theta,
                                   bool interleaved) {
  std::vector<double> y(static_cast<std::size_t>(x.size(0)));
  for (std::int64_t e = 0; e < x.size(0); ++e) y[e] = x[e].item<double>();
  for (std::int64_t k = 0; k < r / 2; ++k) {
    const double angle =
        p * std::pow(theta, -2.0 * static_cast<double>(k) / static_cast<double>(r));
    const std::int64_t i = interleaved ? 2 * k : k, j = interleaved ? 2 * k + 1 : k + r / 2;
    const double a = x[i].item<double>(), b = x[j].item<double>();
    y[i] = a * std::cos(angle) - b * std::sin(angle);
    y[j] = b * std::cos(angle) + a * std::sin(angle);
  }
  return y;
}

TEST(PositionIdsModel, RopeRotatesQueriesAndKeysByTheAnglesAtTheIds) {
  for (Family f : {Family::kQwen2, Family::kGptj}) {
    ModelConfig cfg = tiny_config(f, PosEncoding::kRope);
    Transformer model(cfg);
    model->init_weights(2);
    model->to(torch::kFloat64);
    torch::manual_seed(1);
    const torch::Tensor x = torch::randn({2, 5, cfg.d_model}, torch::kFloat64);
    const torch::Tensor ids = torch::tensor({0, 3, 9, 10, 27, 1, 2, 14, 20, 31}).view({2, 5});
    model->set_position_ids(ids);
    const ActivationCache a = model->run_with_cache(x);
    const std::int64_t r = cfg.rotary_dims();
    for (const std::string name : {"q", "k"}) {
      const torch::Tensor raw = a["blocks.1.attn.hook_" + name];
      const torch::Tensor rot = a["blocks.1.attn.hook_rot_" + name];
      for (std::int64_t b = 0; b < 2; ++b)
        for (std::int64_t t = 0; t < 5; ++t)
          for (std::int64_t h = 0; h < raw.size(2); ++h) {
            const std::vector<double> want =
                rotate_by_hand(raw[b][t][h], static_cast<double>(ids[b][t].item<std::int64_t>()), r,
                               cfg.rope_theta, cfg.interleaved_rotary());
            for (std::int64_t e = 0; e < raw.size(3); ++e)
              EXPECT_NEAR(rot[b][t][h][e].item<double>(), want[e], 1e-12)
                  << to_string(f) << " " << name << " b " << b << " t " << t << " e " << e;
          }
    }
    // Ids 0..L−1 given are the model without ids; ids shifted by a constant keep every score
    // (rotary is relative), so the logits too.
    model->set_position_ids({});
    const torch::Tensor plain = model->forward_embeddings(x);
    model->set_position_ids(torch::arange(5).repeat({2, 1}));
    EXPECT_TRUE(torch::allclose(model->forward_embeddings(x), plain, 0, 1e-14));
    model->set_position_ids(torch::arange(5).repeat({2, 1}) + 17);
    EXPECT_TRUE(torch::allclose(model->forward_embeddings(x), plain, 0, 1e-10));
    model->set_position_ids(ids);
    EXPECT_FALSE(torch::allclose(model->forward_embeddings(x), plain, 0, 1e-6)) << "ids matter";
  }
}

TEST(PositionIdsModel, ALearnedModelReadsTheTableRowsAtTheIds) {
  const ModelConfig cfg = tiny_config(Family::kGpt2, PosEncoding::kLearned);  // 32 rows
  Transformer model(cfg), moved(cfg);
  model->init_weights(4);
  moved->init_weights(4);
  model->to(torch::kFloat64);
  moved->to(torch::kFloat64);
  torch::manual_seed(2);
  const torch::Tensor x = torch::randn({1, 6, cfg.d_model}, torch::kFloat64);
  const std::vector<std::int64_t> p{2, 5, 6, 19, 30, 31};
  model->set_position_ids(torch::tensor(p).view({1, 6}));
  {  // moved's rows 0..5 are model's rows p: the same input without ids
    torch::NoGradGuard g;
    for (std::int64_t t = 0; t < 6; ++t) moved->wpe[t].copy_(model->wpe[p[t]]);
  }
  const torch::Tensor want = moved->forward_embeddings(x);
  EXPECT_TRUE(torch::equal(model->forward_embeddings(x), want));
  const ActivationCache a = model->run_with_cache(x);
  for (std::int64_t t = 0; t < 6; ++t)
    EXPECT_TRUE(torch::equal(a["hook_pos_embed"][0][t], model->wpe[p[t]])) << t;
  model->set_position_ids({});
  EXPECT_FALSE(torch::equal(model->forward_embeddings(x), want)) << "rows 0..5 are other rows";
  model->set_position_ids(torch::tensor(p).view({2, 3}));
  EXPECT_THROW(model->forward_embeddings(x), std::logic_error) << "ids of another shape";
}

// N equal to a kv input's width (the length and two value tokens) leaves one subset, 0..L−1: the
// run without the option, loss for loss. A wider range changes the losses, not the weights the
// run starts from (RoPE draws nothing).
TEST(PositionIdsTraining, TheWholeWidthIsTheBaselineAndAWiderRangeIsNot) {
  TrainConfig base = tiny_kv();
  base.finalize();
  TrainConfig same = tiny_kv(), wide = tiny_kv();
  same.random_positions = 42;
  wide.random_positions = 160;
  same.finalize();
  wide.finalize();
  Trainer a(base), b(same), c(wide);
  EXPECT_TRUE(torch::equal(a.flat->params, c.flat->params)) << "the same initial weights";
  for (std::int64_t step = 1; step <= 3; ++step) {
    const double la = a.step(step), lb = b.step(step), lc = c.step(step);
    EXPECT_EQ(la, lb) << step;
    EXPECT_NE(la, lc) << step;
  }
  EXPECT_TRUE(torch::equal(a.flat->params, b.flat->params));
}

std::string tiny_flags() { return tiny_kv_flags(2); }

TEST(PositionIdsCli, RecordedOnlyWhenSetAndALearnedTableGetsNRows) {
  const fs::path plain = scratch("plain"), learned = scratch("learned");
  ASSERT_EQ(run_cli(tiny_flags() + "--out " + plain.string(), 300).code, 0);
  const nlohmann::json j = nlohmann::json::parse(slurp(plain / "train.json"))["config"];
  EXPECT_FALSE(j.contains("random_positions"));
  EXPECT_FALSE(j.contains("pose"));
  const CliResult r = run_cli(
      tiny_flags() + "--arch gpt2 --pos learned --random-positions 90 --out " + learned.string(),
      300);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json k = nlohmann::json::parse(slurp(learned / "train.json"))["config"];
  EXPECT_EQ(k["random_positions"], 90);
  EXPECT_EQ(nlohmann::json::parse(slurp(learned / "config.json"))["n_positions"].get<int>(), 90);
  // eval reaches the table's rows (an input of 88 + 2 tokens) and refuses one past them.
  const CliResult in_table =
      run_cli("eval --run " + learned.string() + " --lengths 40,88 --depths 0,100 --count 2", 300);
  EXPECT_EQ(in_table.code, 0) << in_table.err;
  const CliResult past =
      run_cli("eval --run " + learned.string() + " --lengths 89 --depths 0 --count 2", 60);
  EXPECT_EQ(past.code, 2) << past.err;
  const fs::path pose = scratch("pose");
  const CliResult q = run_cli(tiny_flags() + "--pose 128 --out " + pose.string(), 300);
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(pose / "train.json"))["config"]["pose"], 128);
}

TEST(PositionIdsCli, BadInputGetsOneLine) {
  const fs::path out = scratch("bad");
  const std::vector<std::pair<std::string, std::string>> cases{
      {tiny_flags() + "--random-positions 41", "randomized range smaller than the training length"},
      {tiny_flags() + "--pose 20", "randomized range smaller than the training length"},
      {tiny_flags() + "--random-positions 100 --pose 100", "give one"},
      {tiny_flags() + "--arch gpt2 --pos alibi --random-positions 100", "needs position ids"},
      {tiny_flags() + "--pos none --random-positions 100", "needs position ids"},
      {tiny_flags() + "--random-positions 2000000", "at most"},
      {tiny_flags() + "--random-positions x", "random"},
      {"train --task number --length 17 --random-positions 16 --steps 2 ",
       "randomized range smaller than the training length"},
      {"train --task text --corpus /nonexistent/corpus --random-positions 512 --steps 2 ",
       "not yet"}};
  for (const auto& [flags, says] : cases) {
    const CliResult r = run_cli(flags + " --out " + out.string(), 60);
    EXPECT_EQ(r.code, 2) << flags << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << flags << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << flags << ": " << r.err;
    EXPECT_FALSE(fs::exists(out / "train.json")) << flags;
  }
}

}  // namespace
