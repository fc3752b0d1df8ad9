// The measured branch strength: the jacobian estimator against the Jacobian of the attention
// branch's value path built by autograd from the modules' own forwards, for LayerNorm,
// RMSNorm with GQA, and GPT-J's parallel block (whose MLP probes are checked against the
// exact MLP Jacobian); and the positive control: scaling W_O's init by s scales layer 0's
// gain by exactly s. The same readings taken block by block during a checkpointed backward
// equal the standalone pass.
#include "posbias/model/branch_strength.h"

#include <gtest/gtest.h>

#include <cmath>

#include "../tiny_model.h"
#include "posbias/jacobian/jacobian.h"

namespace posbias {
namespace {

ModelConfig tiny(Family f) { return tiny_config(f, family_default(f).pos); }

// ‖∂g/∂x‖²_F for g: R^D → R^D at x, by D reverse passes.
double jacobian_frobenius2(const std::function<torch::Tensor(const torch::Tensor&)>& g,
                           const torch::Tensor& x0) {
  const auto x = x0.detach().clone().requires_grad_(true);
  const auto y = g(x);
  double sum = 0;
  for (std::int64_t k = 0; k < y.size(0); ++k) {
    const auto grad = torch::autograd::grad({y[k]}, {x}, {}, /*retain_graph=*/true)[0];
    sum += grad.pow(2).sum().item<double>();
  }
  return sum;
}

TEST(BranchStrength, JacobianEstimatorEqualsTheValuePathJacobian) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj}) {
    Transformer m(tiny(f));
    m->init_weights(7);
    m->to(torch::kFloat64);
    m->eval();
    torch::manual_seed(1);
    const auto x = torch::randn({1, 10, 16}, torch::kFloat64) * 0.3;
    ForwardCache cache;
    {
      torch::NoGradGuard ng;
      m->forward_embeddings(x, &cache);
    }
    const BranchStrength got = branch_strength(m, cache, 3);
    ASSERT_EQ(got.jacobian.size(), 3U);
    for (std::size_t l = 0; l < 3; ++l) {
      Block& b = m->layers[l];
      const auto e = b->attn->head_dim, h = b->attn->heads, k = b->attn->kv_heads;
      // The value path at one position: norm → v heads → each query head reads its kv head
      // → output projection (attention weights left out).
      auto value_path = [&](const torch::Tensor& row) {
        const auto v = b->attn->qkv(b->ln1(row)).narrow(-1, (h + k) * e, k * e).view({k, e});
        return b->attn->out(v.repeat_interleave(h / k, 0).reshape({h * e}));
      };
      auto mlp_path = [&](const torch::Tensor& row) { return b->mlp(b->ln1(row)); };
      const auto input = cache.blocks[l].resid_pre[0];
      double g2 = 0, m2 = 0;
      for (std::int64_t j = 0; j < 10; ++j) {
        g2 += jacobian_frobenius2(value_path, input[j]) / 16.0 / 10.0;
        if (b->parallel) m2 += jacobian_frobenius2(mlp_path, input[j]) / 16.0 / 10.0;
      }
      const double g = std::sqrt(g2);
      const double s = std::sqrt(1.0 + m2);
      const double want = g / (s + g);
      // Sequential blocks: exact. Parallel: s comes from 8 probes per position.
      EXPECT_NEAR(got.jacobian[l] / want, 1.0, b->parallel ? 0.05 : 1e-10)
          << to_string(f) << " layer " << l;
      // stay: the MLP half at each position, relative to its RMS over positions.
      if (!b->parallel) {
        const auto mid = cache.blocks[l].resid_mid[0];
        auto mlp_half = [&](const torch::Tensor& row) { return row + b->mlp(b->ln2(row)); };
        std::vector<double> s2;
        double mean_s2 = 0;
        for (std::int64_t i = 0; i < 10; ++i) {
          s2.push_back(jacobian_frobenius2(mlp_half, mid[i]) / 16.0);
          mean_s2 += s2.back() / 10.0;
        }
        for (std::size_t i = 0; i < 10; ++i)  // 8 probes of 16 dims: ~6% per position
          EXPECT_NEAR(got.stay_gain[l][i], std::sqrt(s2[i] / mean_s2), 0.2) << l << " " << i;
      }
      // forward: ‖a‖/(‖x‖+‖a‖) from the cache's own tensors.
      const auto a = cache.blocks[l].attn_out[0].norm(2, -1), xn = input.norm(2, -1);
      EXPECT_NEAR(got.forward[l], (a / (xn + a)).mean().item<double>(), 1e-12);
    }
    const auto attention = mean_attention(cache);
    ASSERT_EQ(attention.size(), 3U);
    EXPECT_NEAR(attention[1].sum(1).sub(1).abs().max().item<double>(), 0.0, 1e-12);
    EXPECT_EQ(attention[1][2][5].item<double>(), 0.0);  // causal
  }
}

TEST(BranchStrength, AttentionInitScaleScalesTheFirstLayersGain) {
  auto alpha0 = [](double scale) {
    ModelConfig c = tiny(Family::kGpt2);
    c.attn_init_scale = scale;
    Transformer m(c);
    m->init_weights(5);
    m->to(torch::kFloat64);
    torch::manual_seed(2);
    const auto x = torch::randn({1, 10, 16}, torch::kFloat64) * 0.02;
    ForwardCache cache;
    torch::NoGradGuard ng;
    m->forward_embeddings(x, &cache);
    return branch_strength(m, cache, 0).jacobian;
  };
  const auto a1 = alpha0(1.0), a4 = alpha0(4.0), aq = alpha0(0.25);
  auto gain = [](double a) { return a / (1 - a); };
  EXPECT_NEAR(gain(a4[0]) / gain(a1[0]), 4.0, 1e-9);
  EXPECT_NEAR(gain(aq[0]) / gain(a1[0]), 0.25, 1e-9);
  for (std::size_t l = 0; l < a1.size(); ++l) {
    EXPECT_LT(aq[l], a1[l]) << l;
    EXPECT_LT(a1[l], a4[l]) << l;
  }
}

// What birth reads off each block during a checkpointed backward (the block's recomputed
// cache, handed to JacobianSpec::on_block) equals the standalone passes over a full cache:
// every layer visited once, top first, on both backward orders.
TEST(BranchStrength, ReadingsDuringTheBackwardEqualTheStandalonePass) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj}) {
    Transformer m(tiny(f));
    m->init_weights(4);
    m->to(torch::kFloat64);
    m->eval();
    torch::manual_seed(3);
    const auto x = torch::randn({1, 12, 16}, torch::kFloat64) * 0.3;
    ForwardCache full;
    {
      torch::NoGradGuard ng;
      m->forward_embeddings(x, &full);
    }
    const BranchStrength want = branch_strength(m, full, 9);
    const double want_entropy = attention_entropy_ratio(full);
    for (BackwardOrder order : {BackwardOrder::kByChunk, BackwardOrder::kByBlock}) {
      JacobianSpec spec;
      spec.method = JacobianMethod::kHutchinson;
      spec.probes = 3;
      spec.checkpoint = true;
      spec.order = order;
      BranchStrength got;
      EntropyRatioSum entropy;
      std::vector<std::size_t> visited;
      ForwardCache cache;
      spec.on_block = [&](std::size_t l, const BlockCache& block) {
        visited.push_back(l);
        read_branch_strength(*m->layers[l], block, l, 9, got);
        entropy.add(attention_entropy_ratio_sum(block, cache.pos));
      };
      jacobian_profile(m, x, spec, &cache);
      const std::string name = to_string(f) + (order == BackwardOrder::kByBlock ? " by block" : "");
      EXPECT_EQ(visited, (std::vector<std::size_t>{2, 1, 0})) << name;
      EXPECT_TRUE(cache.blocks[0].attn.q.defined() == false) << name;  // checkpointed
      ASSERT_EQ(got.jacobian.size(), 3U) << name;
      for (std::size_t l = 0; l < 3; ++l) {
        EXPECT_NEAR(got.jacobian[l], want.jacobian[l], 1e-12) << name << " " << l;
        EXPECT_NEAR(got.forward[l], want.forward[l], 1e-12) << name << " " << l;
        for (std::size_t j = 0; j < 12; ++j) {
          EXPECT_NEAR(got.key_gain[l][j], want.key_gain[l][j], 1e-12) << name << " " << l;
          EXPECT_NEAR(got.stay_gain[l][j], want.stay_gain[l][j], 1e-12) << name << " " << l;
        }
      }
      EXPECT_NEAR(entropy.ratio(), want_entropy, 1e-12) << name;
    }
  }
}

}  // namespace
}  // namespace posbias
