// Log-n attention scaling (ModelConfig::logn_scale, arch/logn_scale.h): query i's logits times
// s·log(n_i), n_i the keys it sees. The attention rows against softmax(s·log(n_i)·scores_i)
// computed here in double loops from a plain model's queries and keys, with and without a
// window; the linearized backward (dense and blockwise) against autograd; the blockwise path
// against the dense one; no option (or the option removed) leaves every output bit for bit as
// the plain model's; the refusals (s <= 0, ALiBi, a null sink, eval on a run trained with it);
// train.json and config.json keep it only when set.
#include "posbias/arch/logn_scale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "../tiny_model.h"
#include "backward_check.h"
#include "posbias/hf/hf_config.h"
#include "posbias/model/transformer.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {
namespace {

ModelConfig scaled_config(Family f, PosEncoding pos, std::optional<double> s,
                          std::int64_t window = 0) {
  ModelConfig c = tiny_config(f, pos);
  c.window = window;
  c.logn_scale = s;
  return c;
}

TEST(LognScale, FactorsAreSLogOfTheKeysEachRowSees) {
  const std::vector<double> f = logn_factors(0.5, 6, 0);
  ASSERT_EQ(f.size(), 6u);
  for (std::size_t i = 0; i < f.size(); ++i)
    EXPECT_DOUBLE_EQ(f[i], 0.5 * std::log(static_cast<double>(i + 1))) << i;
  const std::vector<double> w = logn_factors(2.0, 6, 3);  // a window of 3 keys
  for (std::size_t i = 0; i < w.size(); ++i)
    EXPECT_DOUBLE_EQ(w[i], 2.0 * std::log(static_cast<double>(std::min<std::size_t>(i + 1, 3))));
}

// Layer 0's rows of the scaled model against the plain model's queries and keys (the same
// weights, the same input): softmax over j <= i (and j > i − W) of s·log(n_i)·q_i·k_j/√E.
TEST(LognScale, RowsEqualTheSoftmaxOfScaledLogitsComputedByHand) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj}) {
    for (std::int64_t window : {0, 4}) {
      const PosEncoding pos = f == Family::kGpt2 ? PosEncoding::kLearned : PosEncoding::kRope;
      const double s = 0.7;
      Transformer plain(scaled_config(f, pos, std::nullopt, window));
      Transformer scaled(scaled_config(f, pos, s, window));
      plain->init_weights(3);
      scaled->init_weights(3);
      plain->to(torch::kFloat64);
      scaled->to(torch::kFloat64);
      {  // logits far from 0, so that the factor matters
        torch::NoGradGuard g;
        plain->layers[0]->attn->qkv->weight.mul_(10);
        scaled->layers[0]->attn->qkv->weight.mul_(10);
      }
      torch::manual_seed(4);
      const auto x = torch::randn({1, 11, 16}, torch::kFloat64) * 3;
      ForwardCache pc, sc;
      plain->forward_embeddings(x, &pc);
      scaled->forward_embeddings(x, &sc);
      const auto q = pc.blocks[0].attn.q[0], k = pc.blocks[0].attn.k[0];  // [H, L, E], unscaled
      const auto got = sc.blocks[0].attn.pattern[0];                      // [H, L, L]
      const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(2)));
      double worst = 0;
      for (std::int64_t h = 0; h < q.size(0); ++h) {
        for (std::int64_t i = 0; i < q.size(1); ++i) {
          const std::int64_t first = window > 0 ? std::max<std::int64_t>(0, i - window + 1) : 0;
          const double factor = s * std::log(static_cast<double>(i - first + 1));
          std::vector<double> e(static_cast<std::size_t>(q.size(1)), 0.0);
          double z = 0;
          for (std::int64_t j = first; j <= i; ++j) {
            const double logit = factor * (q[h][i] * k[h][j]).sum().item<double>() * scale;
            e[static_cast<std::size_t>(j)] = std::exp(logit);
            z += e[static_cast<std::size_t>(j)];
          }
          for (std::int64_t j = 0; j < q.size(1); ++j)
            worst = std::max(
                worst, std::fabs(got[h][i][j].item<double>() - e[static_cast<std::size_t>(j)] / z));
        }
      }
      EXPECT_LT(worst, 1e-13) << to_string(f) << " window " << window;
      // And the scaling changed something: the plain rows differ from the scaled ones.
      EXPECT_GT((pc.blocks[0].attn.pattern[0] - got).abs().max().item<double>(), 0.05);
    }
  }
}

TEST(LognScale, LinearizedBackwardMatchesAutogradOnBothPaths) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj, Family::kLlama}) {
    for (AttentionPath path : {AttentionPath::kDense, AttentionPath::kBlockwise}) {
      Transformer m(scaled_config(f, PosEncoding::kRope, 0.9));
      m->init_weights(11);
      m->to(torch::kFloat64);
      m->eval();
      m->set_attention(path);
      const posbias_test::BackwardErrors e = posbias_test::backward_errors(m);
      EXPECT_LT(e.linearized, 1e-12) << to_string(f) << " " << to_string(path);
      // One query's row (what birth runs): the cotangent zero off position 7.
      EXPECT_LT(e.query_row, 1e-12) << to_string(f) << " " << to_string(path);
    }
  }
}

TEST(LognScale, BlockwiseEqualsDense) {
  Transformer m(scaled_config(Family::kQwen2, PosEncoding::kRope, 0.4));
  m->init_weights(5);
  m->to(torch::kFloat64);
  torch::manual_seed(6);
  const auto x = torch::randn({2, 30, 16}, torch::kFloat64);
  const auto dense = m->forward_embeddings(x);
  m->set_attention(AttentionPath::kBlockwise);
  const auto blockwise = m->forward_embeddings(x);
  EXPECT_LT((dense - blockwise).abs().max().item<double>(), 1e-12);
}

// No option is the plain softmax bit for bit, and removing the option at evaluation restores it.
TEST(LognScale, AbsentIsThePlainModelBitForBit) {
  for (Family f : {Family::kGpt2, Family::kQwen2}) {
    Transformer plain(tiny_config(f, PosEncoding::kRope));
    Transformer other(scaled_config(f, PosEncoding::kRope, std::nullopt));
    plain->init_weights(7);
    other->init_weights(7);
    torch::manual_seed(8);
    const auto x = torch::randn({2, 20, 16});
    const auto want = plain->forward_embeddings(x);
    EXPECT_TRUE(torch::equal(other->forward_embeddings(x), want));
    other->set_logn_scale(0.5);
    EXPECT_FALSE(torch::equal(other->forward_embeddings(x), want));
    other->set_logn_scale(std::nullopt);
    EXPECT_TRUE(torch::equal(other->forward_embeddings(x), want)) << to_string(f);
  }
}

TEST(LognScale, RefusesABadScaleAlibiANullSinkAndARunTrainedWithIt) {
  for (double bad : {0.0, -1.0, 101.0, std::nan(""), HUGE_VAL})
    EXPECT_THROW(check_logn_scale(bad), std::invalid_argument) << bad;
  Transformer m(tiny_config(Family::kQwen2, PosEncoding::kRope));
  EXPECT_THROW(m->set_logn_scale(0.0), std::invalid_argument);
  EXPECT_FALSE(m->config().logn_scale) << "a refused scale leaves the model unchanged";
  Transformer alibi(tiny_config(Family::kGpt2, PosEncoding::kAlibi));
  EXPECT_THROW(alibi->set_logn_scale(0.5), std::invalid_argument);
  ModelConfig sunk = tiny_config(Family::kGpt2, PosEncoding::kRope);
  sunk.null_sink = 0.0;
  sunk.logn_scale = 0.5;
  EXPECT_THROW(sunk.validate(), std::invalid_argument);
  EXPECT_NO_THROW(check_eval_logn_scale(0.5, std::nullopt));
  EXPECT_NO_THROW(check_eval_logn_scale(std::nullopt, 0.5));
  try {
    check_eval_logn_scale(0.5, 0.25);
    ADD_FAILURE() << "eval --logn-scale on a run trained with it";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("already scaled"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_eval_logn_scale(-1.0, std::nullopt), std::invalid_argument);
}

TEST(LognScale, TrainJsonAndConfigJsonKeepItOnlyWhenSet) {
  TrainConfig plain = TrainConfig::defaults(Task::kKv);
  plain.finalize();
  const nlohmann::json pj = train_config_to_json(plain);
  EXPECT_FALSE(pj.contains("logn_scale")) << "a default run's train.json is as before";
  TrainConfig scaled = plain;
  scaled.logn_scale = 0.375;
  const nlohmann::json sj = train_config_to_json(scaled);
  ASSERT_TRUE(sj.contains("logn_scale"));
  EXPECT_EQ(sj["logn_scale"].get<double>(), 0.375);
  TrainConfig back = train_config_from_json(sj);
  back.finalize();
  ASSERT_TRUE(back.logn_scale);
  EXPECT_EQ(*back.logn_scale, 0.375);
  EXPECT_EQ(train_config_to_json(back), sj);
  EXPECT_EQ(back.model_config().logn_scale.value_or(-1), 0.375);
  nlohmann::json bad = sj;
  bad["logn_scale"] = -0.5;
  EXPECT_THROW(train_config_from_json(bad).finalize(), std::invalid_argument);
  // config.json: the model rebuilt from it scales as trained; a plain run's has no such key.
  const HfConfig hf = hf_config_from_model(back.model_config());
  EXPECT_EQ(hf.logn_scale.value_or(-1), 0.375);
  EXPECT_EQ(parse_hf_config(to_json(hf).dump(), "config.json"), hf);
  EXPECT_EQ(model_config_from_hf(hf).logn_scale.value_or(-1), 0.375);
  EXPECT_FALSE(to_json(hf_config_from_model(plain.model_config())).contains("logn_scale"));
}

}  // namespace
}  // namespace posbias
