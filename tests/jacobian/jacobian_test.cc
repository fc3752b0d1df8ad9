// The batched linearized backward against the textbook loop of D autograd VJPs, for every
// family and positional encoding; and Hutchinson's estimate against the exact profile.
#include "posbias/jacobian/jacobian.h"

#include <gtest/gtest.h>

#include "../tiny_model.h"

namespace posbias {
namespace {

ModelConfig tiny(Family f, PosEncoding pos) { return tiny_config(f, pos); }

// Perturb norms and biases away from their init so the test sees every parameter.
void perturb(Transformer& m, std::uint64_t seed) {
  torch::NoGradGuard g;
  torch::manual_seed(seed);
  for (auto& p : m->named_parameters()) {
    if (p.key().find("ln") != std::string::npos || p.key().find("bias") != std::string::npos) {
      p.value().add_(torch::randn_like(p.value()) * 0.1);
    }
  }
}

TEST(Jacobian, ExactMatchesAutogradLoop) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj, Family::kLlama}) {
    for (PosEncoding pos :
         {PosEncoding::kLearned, PosEncoding::kRope, PosEncoding::kNone, PosEncoding::kAlibi}) {
      for (auto dtype : {torch::kFloat64, torch::kFloat32}) {
        Transformer m(tiny(f, pos));
        m->init_weights(11);
        perturb(m, 5);
        m->to(dtype);
        m->eval();
        torch::manual_seed(3);
        const auto x = (torch::randn({1, 12, 16}) * 0.5).to(dtype);
        for (std::int64_t q : {0, 7}) {
          const auto a = jacobian_profile(m, x, JacobianSpec{JacobianMethod::kAutogradLoop, q});
          for (BackwardOrder order : {BackwardOrder::kByChunk, BackwardOrder::kByBlock}) {
            JacobianSpec fast{JacobianMethod::kExact, q};
            fast.max_chunk = 5;  // exercise chunking
            fast.order = order;
            const auto b = jacobian_profile(m, x, fast);
            const double rel = ((a - b).abs() / a.abs().clamp_min(1e-30)).max().item<double>();
            const double tol = dtype == torch::kFloat64 ? 1e-10 : 1e-5;
            EXPECT_LT(rel, tol) << to_string(f) << "/" << to_string(pos) << " q=" << q
                                << (dtype == torch::kFloat64 ? " f64" : " f32")
                                << (order == BackwardOrder::kByBlock ? " by block" : " by chunk")
                                << " worst relative error " << rel;
            if (q == 7) {
              EXPECT_EQ(b.slice(0, 7).abs().max().item<double>(), 0.0)
                  << "causality: keys after the query";
            }
          }
        }
      }
    }
  }
}

// Longer than one causal block of the attention backward (64 query rows), so the blocked
// products and the diagonal blocks are exercised; and the general backward (cotangents at
// every position) agrees with the query-row one it generalizes.
// A sliding window of W keys over H layers: the query reaches back at most H·(W-1)
// positions, so the exact profile is exactly zero before that and positive from there on,
// and the batched engine still equals the autograd loop. With ALiBi too.
TEST(Jacobian, WindowLimitsTheReachToLayersTimesWindow) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj, Family::kLlama}) {
    for (PosEncoding pos : {PosEncoding::kLearned, PosEncoding::kRope, PosEncoding::kAlibi}) {
      ModelConfig c = tiny(f, pos);
      c.window = 3;
      Transformer m(c);
      m->init_weights(4);
      perturb(m, 2);
      m->to(torch::kFloat64);
      m->eval();
      torch::manual_seed(9);
      const auto x = (torch::randn({1, 14, 16}) * 0.5).to(torch::kFloat64);
      const auto a = jacobian_profile(m, x, JacobianSpec{JacobianMethod::kAutogradLoop, 0});
      const auto b = jacobian_profile(m, x, JacobianSpec{JacobianMethod::kExact, 0});
      const std::int64_t first = 14 - c.layers * (c.window - 1);  // 1-based: 8
      for (std::int64_t j = 1; j <= 14; ++j) {
        const double v = a[j - 1].item<double>();
        if (j < first) {
          EXPECT_EQ(v, 0.0) << to_string(f) << "/" << to_string(pos) << " j=" << j;
          EXPECT_EQ(b[j - 1].item<double>(), 0.0);
        } else {
          EXPECT_GT(v, 0.0) << to_string(f) << "/" << to_string(pos) << " j=" << j;
          EXPECT_NEAR(b[j - 1].item<double>() / v, 1.0, 1e-10) << j;
        }
      }
    }
  }
}

TEST(Jacobian, LongSequencesCrossCausalBlocks) {
  for (Family f : {Family::kGpt2, Family::kQwen2}) {
    ModelConfig cfg = tiny(f, f == Family::kGpt2 ? PosEncoding::kLearned : PosEncoding::kRope);
    cfg.max_positions = 160;
    Transformer m(cfg);
    m->init_weights(4);
    perturb(m, 9);
    m->to(torch::kFloat64);
    m->eval();
    torch::manual_seed(8);
    const auto x = (torch::randn({1, 150, 16}) * 0.5).to(torch::kFloat64);
    for (std::int64_t q : {0, 130}) {
      const auto a = jacobian_profile(m, x, JacobianSpec{JacobianMethod::kAutogradLoop, q});
      for (BackwardOrder order : {BackwardOrder::kByChunk, BackwardOrder::kByBlock}) {
        JacobianSpec fast{JacobianMethod::kExact, q};
        fast.order = order;
        const auto b = jacobian_profile(m, x, fast);
        const double rel = ((a - b).abs() / a.abs().clamp_min(1e-30)).max().item<double>();
        EXPECT_LT(rel, 1e-10) << to_string(f) << " q=" << q << " worst relative error " << rel;
      }
    }
    ForwardCache cache;
    {
      torch::NoGradGuard g;
      m->forward_embeddings(x, &cache);
    }
    const auto seeds = torch::randn({3, 1, 16}, torch::kFloat64);
    auto dhidden = torch::zeros({3, 1, 150, 16}, torch::kFloat64);
    dhidden.select(2, 99).copy_(seeds);
    const auto full = m->backward_to_input(cache, dhidden);
    const auto row = m->backward_from_query(cache, seeds, 99);
    EXPECT_LT((full - row).abs().max().item<double>(), 1e-12 * full.abs().max().item<double>());
  }
}

// Chunks and per-position maps run on parallel threads: two runs give the same bits, and one
// thread gives the same profile (up to the GEMMs' thread-dependent rounding outside them).
TEST(Jacobian, ParallelChunksAreDeterministicAndMatchOneThread) {
  ModelConfig cfg = tiny(Family::kGpt2, PosEncoding::kLearned);
  cfg.max_positions = 48;
  Transformer m(cfg);
  m->init_weights(6);
  perturb(m, 2);
  m->eval();
  torch::manual_seed(4);
  const auto x = torch::randn({1, 40, 16}) * 0.5;
  const int threads = torch::get_num_threads();
  for (BackwardOrder order : {BackwardOrder::kByChunk, BackwardOrder::kByBlock}) {
    for (JacobianMethod method : {JacobianMethod::kExact, JacobianMethod::kHutchinson}) {
      JacobianSpec spec{method};
      spec.max_chunk = 2;  // 8 chunks of the 16 cotangents
      spec.order = order;
      torch::set_num_threads(std::max(threads, 2));
      const auto first = jacobian_profile(m, x, spec);
      EXPECT_TRUE(torch::equal(first, jacobian_profile(m, x, spec)));
      torch::set_num_threads(1);
      const auto serial = jacobian_profile(m, x, spec);
      torch::set_num_threads(threads);
      EXPECT_LT(((first - serial).abs() / serial).max().item<double>(), 1e-5);
    }
  }
}

TEST(Jacobian, HutchinsonIsUnbiased) {
  Transformer m(tiny(Family::kGpt2, PosEncoding::kLearned));
  m->to(torch::kFloat64);
  m->eval();
  const auto x = torch::randn({1, 10, 16}, torch::kFloat64) * 0.5;
  const auto exact = jacobian_profile(m, x, {JacobianMethod::kExact});
  JacobianSpec h{JacobianMethod::kHutchinson};
  h.probes = 5000;
  const auto est = jacobian_profile(m, x, h);
  // Relative std of a k-probe estimate of ‖J‖² is about sqrt(2/k) = 2%; the norm halves it.
  const double rel = ((est - exact).abs() / exact).max().item<double>();
  EXPECT_LT(rel, 0.05) << "worst relative error " << rel;
  h.order = BackwardOrder::kByBlock;  // the same probes organized block by block
  EXPECT_LT((jacobian_profile(m, x, h) - est).abs().max().item<double>(),
            1e-12 * est.max().item<double>());
  h.order = BackwardOrder::kAuto;
  h.probes = 0;
  EXPECT_THROW(jacobian_profile(m, x, h), std::invalid_argument);
  JacobianSpec bad{JacobianMethod::kExact, 11};
  EXPECT_THROW(jacobian_profile(m, x, bad), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
