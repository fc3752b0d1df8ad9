// Attention calibration (model/attention_calibration.h, eval --calibrate): the position-only
// component of each layer equals log-attention computed here in double loops from the queries
// and keys of the content-free input (each layer under the calibration of those before it); the
// calibrated rows are distributions; on the content-free input they are uniform over the keys
// each query sees at strength 1 (the definition's positive control) while plain attention is
// not; strength 0 and a finished scope leave every output bit for bit as the plain model's; the
// refusals.
#include "posbias/model/attention_calibration.h"

#include <gtest/gtest.h>

#include <cmath>

#include "../tiny_model.h"
#include "posbias/model/transformer.h"

namespace posbias {
namespace {

constexpr std::int64_t kFiller = 5;

// A tiny model whose attention is far from uniform on a constant input: larger q·k weights.
Transformer sharp_model(Family f, PosEncoding pos, std::int64_t window = 0) {
  ModelConfig c = tiny_config(f, pos);
  c.layers = 2;
  c.window = window;
  Transformer m(c);
  m->init_weights(7);
  m->to(torch::kFloat64);
  torch::NoGradGuard g;
  for (Block& b : m->layers) b->attn->qkv->weight.mul_(8);
  return m;
}

ForwardCache forward(Transformer& m, const torch::Tensor& ids) {
  torch::NoGradGuard g;
  ForwardCache cache;
  m->forward_embeddings(m->embed(ids), &cache);
  return cache;
}

torch::Tensor filler_ids(std::int64_t n) { return torch::full({1, n}, kFiller, torch::kLong); }

// Largest |row sum − 1| and largest |P[i][j] − 1/n_i| over the keys each query sees.
struct RowCheck {
  double sum = 0, uniform = 0;
};
RowCheck check_rows(const torch::Tensor& pattern, std::int64_t window) {  // [B, H, L, L]
  RowCheck r;
  const auto p = pattern.to(torch::kFloat64);
  r.sum = (p.sum(-1) - 1).abs().max().item<double>();
  const std::int64_t l = p.size(2);
  for (std::int64_t i = 0; i < l; ++i) {
    const std::int64_t first = window > 0 ? std::max<std::int64_t>(0, i - window + 1) : 0;
    const double u = 1.0 / static_cast<double>(i - first + 1);
    const auto seen = p.select(2, i).narrow(-1, first, i - first + 1);
    r.uniform = std::max(r.uniform, (seen - u).abs().max().item<double>());
  }
  return r;
}

TEST(AttentionCalibration, ComponentIsLogAttentionOfTheFillerInputByHand) {
  for (Family f : {Family::kQwen2, Family::kGpt2}) {
    for (std::int64_t window : {0, 4}) {
      const PosEncoding pos = f == Family::kGpt2 ? PosEncoding::kLearned : PosEncoding::kRope;
      Transformer m = sharp_model(f, pos, window);
      const std::int64_t n = 9;
      const double alpha = 0.6;
      const PositionComponents c = estimate_position_components(m, kFiller, n, alpha);
      ASSERT_EQ(c.size(), m->layers.size());
      // The queries and keys each layer sees under the calibration of the layers before it:
      // the calibrated forward's own caches.
      ForwardCache cache;
      {
        CalibratedAttention on(m, c, alpha);
        cache = forward(m, filler_ids(n));
      }
      for (std::size_t l = 0; l < c.size(); ++l) {
        const auto q = cache.blocks[l].attn.q[0], k = cache.blocks[l].attn.k[0];  // [H, L, E]
        const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(2)));
        double worst = 0;
        for (std::int64_t h = 0; h < q.size(0); ++h) {
          for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t first = window > 0 ? std::max<std::int64_t>(0, i - window + 1) : 0;
            double z = 0;
            for (std::int64_t j = first; j <= i; ++j)
              z += std::exp((q[h][i] * k[h][j]).sum().item<double>() * scale);
            for (std::int64_t j = 0; j < n; ++j) {
              const double want =
                  j >= first && j <= i
                      ? (q[h][i] * k[h][j]).sum().item<double>() * scale - std::log(z)
                      : 0.0;
              worst = std::max(worst, std::abs(c[l][h][i][j].item<double>() - want));
            }
          }
        }
        EXPECT_LT(worst, 1e-12) << to_string(f) << " window " << window << " layer " << l;
      }
    }
  }
}

TEST(AttentionCalibration, FillerInputBecomesUniformAndRowsStayDistributions) {
  for (std::int64_t window : {0, 4}) {
    Transformer m = sharp_model(Family::kQwen2, PosEncoding::kRope, window);
    const std::int64_t n = 12;
    const PositionComponents c = estimate_position_components(m, kFiller, n, 1.0);
    const ForwardCache plain = forward(m, filler_ids(n));
    ForwardCache calibrated, shorter, random;
    torch::manual_seed(3);
    const auto ids = torch::randint(0, 37, {3, n}, torch::kLong);
    {
      CalibratedAttention on(m, c, 1.0);
      calibrated = forward(m, filler_ids(n));
      shorter = forward(m, filler_ids(7));  // the [7, 7] corner of the estimate
      random = forward(m, ids);
    }
    double plain_worst = 0;
    for (std::size_t l = 0; l < m->layers.size(); ++l) {
      plain_worst = std::max(plain_worst, check_rows(plain.blocks[l].attn.pattern, window).uniform);
      const RowCheck on = check_rows(calibrated.blocks[l].attn.pattern, window);
      EXPECT_LT(on.uniform, 1e-12) << "layer " << l << " window " << window;
      EXPECT_LT(check_rows(shorter.blocks[l].attn.pattern, window).uniform, 1e-12) << l;
      // Real input: rows still sum to 1, and calibration changed them.
      EXPECT_LT(check_rows(random.blocks[l].attn.pattern, window).sum, 1e-12) << l;
    }
    // The negative control: plain attention on the filler input is far from uniform.
    EXPECT_GT(plain_worst, 0.05) << "window " << window;
    const ForwardCache random_plain = forward(m, ids);
    EXPECT_GT((random.blocks[0].attn.pattern - random_plain.blocks[0].attn.pattern)
                  .abs()
                  .max()
                  .item<double>(),
              1e-3);
  }
}

TEST(AttentionCalibration, StrengthZeroAndAFinishedScopeAreThePlainModelBitForBit) {
  ModelConfig cfg = tiny_config(Family::kQwen2, PosEncoding::kRope);
  Transformer m(cfg);
  m->init_weights(2);
  torch::manual_seed(5);
  const auto ids = torch::randint(0, 37, {2, 10}, torch::kLong);
  torch::NoGradGuard g;
  const auto plain = m->forward(ids);
  {
    CalibratedAttention off(m, estimate_position_components(m, kFiller, 10, 0.0), 0.0);
    for (Block& b : m->layers) EXPECT_FALSE(static_cast<bool>(b->attn->score_hook));
    EXPECT_TRUE(torch::equal(m->forward(ids), plain));
  }
  {
    CalibratedAttention on(m, estimate_position_components(m, kFiller, 10, 1.0), 1.0);
    EXPECT_FALSE(torch::equal(m->forward(ids), plain));
    // An input longer than the estimate is refused, not read past its corner.
    EXPECT_THROW(m->forward(torch::zeros({1, 11}, torch::kLong)), std::logic_error);
  }
  for (Block& b : m->layers) EXPECT_FALSE(static_cast<bool>(b->attn->score_hook));
  EXPECT_TRUE(torch::equal(m->forward(ids), plain));
}

TEST(AttentionCalibration, RefusesABadStrengthANullSinkAndBlockwiseAttention) {
  Transformer m(tiny_config(Family::kQwen2, PosEncoding::kRope));
  m->init_weights(1);
  for (double bad : {-0.1, 1.5, std::nan("")})
    EXPECT_THROW(estimate_position_components(m, kFiller, 8, bad), std::invalid_argument) << bad;
  EXPECT_THROW(estimate_position_components(m, kFiller, 0, 1.0), std::invalid_argument);
  ModelConfig sink = tiny_config(Family::kQwen2, PosEncoding::kRope);
  sink.null_sink = 1.0;
  Transformer s(sink);
  EXPECT_THROW(estimate_position_components(s, kFiller, 8, 1.0), std::invalid_argument);
  CalibratedAttention on(m, estimate_position_components(m, kFiller, 8, 1.0), 1.0);
  m->set_attention(AttentionPath::kBlockwise);
  torch::NoGradGuard g;
  EXPECT_THROW(m->forward(torch::zeros({1, 8}, torch::kLong)), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
