// The null sink (ModelConfig::null_sink): a learned sink logit b_h per head whose e^{b_h} joins
// each query's softmax normalizer with no value. Its attention rows against a hand computation
// in double loops, its linearized backward against autograd, the model without it unchanged
// (every other weight bit-identical for a seed) and the limit b → −∞ (the plain softmax).
#include <gtest/gtest.h>

#include <cmath>

#include "../tiny_model.h"
#include "backward_check.h"
#include "posbias/model/transformer.h"

namespace posbias {
namespace {

ModelConfig with_sink(Family f, PosEncoding pos, std::optional<double> b) {
  ModelConfig c = tiny_config(f, pos);
  c.null_sink = b;
  return c;
}

TEST(NullSink, RowsSumToOneMinusTheSinkMassAndEqualAHandComputation) {
  for (Family f : {Family::kGpt2, Family::kQwen2}) {
    for (double b : {-1.0, 0.0, 1.5}) {
      Transformer m(with_sink(f, PosEncoding::kAlibi, b));
      m->init_weights(3);
      m->to(torch::kFloat64);
      m->eval();
      {  // distinct logits per head, so a head mix-up would show
        torch::NoGradGuard g;
        m->layers[1]->attn->null_sink.copy_(torch::tensor({b, b - 0.5, b + 0.25, b + 1.0}));
      }
      torch::manual_seed(4);
      const auto x = torch::randn({1, 9, 16}, torch::kFloat64) * 2;
      ForwardCache cache;
      m->forward_embeddings(x, &cache);
      const AttentionCache& c = cache.blocks[1].attn;
      const auto q = c.q[0], k = c.k[0];  // [H, L, E] after rotary
      const auto slopes = m->config().alibi_slopes();
      const auto logits = m->layers[1]->attn->null_sink;
      const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(2)));
      double worst = 0, worst_sum = 0;
      for (std::int64_t h = 0; h < q.size(0); ++h) {
        for (std::int64_t i = 0; i < q.size(1); ++i) {
          std::vector<double> e(static_cast<std::size_t>(i) + 1);
          const double sink = std::exp(logits[h].item<double>());
          double z = sink;
          for (std::int64_t j = 0; j <= i; ++j) {
            const double s = (q[h][i] * k[h][j]).sum().item<double>() * scale -
                             slopes[static_cast<std::size_t>(h)] * static_cast<double>(i - j);
            e[static_cast<std::size_t>(j)] = std::exp(s);
            z += std::exp(s);
          }
          double row_sum = 0;
          for (std::int64_t j = 0; j < q.size(1); ++j) {
            const double want = j <= i ? e[static_cast<std::size_t>(j)] / z : 0.0;
            const double got = c.pattern[0][h][i][j].item<double>();
            worst = std::max(worst, std::fabs(got - want));
            row_sum += got;
          }
          worst_sum = std::max(worst_sum, std::fabs(row_sum - (1.0 - sink / z)));
        }
      }
      EXPECT_LT(worst, 1e-14) << to_string(f) << " b " << b << ": worst |pattern − hand|";
      EXPECT_LT(worst_sum, 1e-14) << to_string(f) << " b " << b << ": worst |Σ row − (1 − sink)|";
    }
  }
}

TEST(NullSink, LinearizedBackwardMatchesAutograd) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj, Family::kLlama}) {
    Transformer m(with_sink(f, PosEncoding::kRope, 0.5));
    m->init_weights(11);
    m->to(torch::kFloat64);
    m->eval();
    const posbias_test::BackwardErrors e = posbias_test::backward_errors(m);
    EXPECT_LT(e.linearized, 1e-12)
        << to_string(f) << ": worst relative error of the input cotangents";
    // One query's row (what birth runs): the same map with the cotangent zero off position 7.
    EXPECT_LT(e.query_row, 1e-12) << to_string(f);
  }
}

TEST(NullSink, AbsentLeavesTheModelAsItWasAndEveryOtherWeightIsTheSeeds) {
  for (Family f : {Family::kGpt2, Family::kGptj}) {
    Transformer plain(with_sink(f, PosEncoding::kRope, std::nullopt));
    Transformer sunk(with_sink(f, PosEncoding::kRope, 2.0));
    plain->init_weights(7);
    sunk->init_weights(7);
    const auto sunk_params = sunk->named_parameters();
    std::int64_t compared = 0;
    for (const auto& p : plain->named_parameters()) {
      EXPECT_EQ(p.key().find("null_sink"), std::string::npos) << "absent: no sink parameter";
      EXPECT_TRUE(torch::equal(p.value(), sunk_params[p.key()])) << p.key();
      ++compared;
    }
    EXPECT_EQ(compared + plain->config().layers, static_cast<std::int64_t>(sunk_params.size()));
    for (const Block& b : sunk->layers)
      EXPECT_TRUE(torch::equal(b->attn->null_sink, torch::full({4}, 2.0f)));
  }
}

TEST(NullSink, TendsToThePlainSoftmaxAsTheLogitFalls) {
  torch::manual_seed(5);
  const auto x = torch::randn({2, 10, 16}, torch::kFloat64);
  Transformer plain(with_sink(Family::kQwen2, PosEncoding::kRope, std::nullopt));
  plain->init_weights(9);
  plain->to(torch::kFloat64);
  const auto want = plain->forward_embeddings(x);
  double previous = INFINITY;
  for (double b : {0.0, -5.0, -10.0, -20.0, -40.0}) {
    Transformer sunk(with_sink(Family::kQwen2, PosEncoding::kRope, b));
    sunk->init_weights(9);
    sunk->to(torch::kFloat64);
    const double diff = (sunk->forward_embeddings(x) - want).abs().max().item<double>();
    EXPECT_LT(diff, previous) << "b " << b;
    previous = diff;
  }
  EXPECT_LT(previous, 1e-12) << "b = -40: e^b ≈ 4e-18 of each normalizer";
}

TEST(NullSink, BlockwiseAttentionRefusesIt) {
  Transformer m(with_sink(Family::kGpt2, PosEncoding::kLearned, 0.0));
  m->set_attention(AttentionPath::kBlockwise);
  EXPECT_THROW(m->forward_embeddings(torch::randn({1, 5, 16})), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
