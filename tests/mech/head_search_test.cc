// The head search against references it cannot see: the gap recomputed by the model code's own
// attention layer (rotary tables, query and key projections, scaled scores), the closed-form gap
// of the constructions, and the one-frequency ceiling 1 − cos(2π/(n − 1)).
#include "posbias/mech/head_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "posbias/model/layers.h"

namespace posbias {
namespace {

constexpr double kPi = std::numbers::pi;

// The head as an Attention layer of the model code (halves layout): the input is [query | key],
// the unit query at the query position and each position's unit key (index: the same key at
// every position); scores are the layer's own query_scores, rotary tables at the head's angles.
torch::Tensor layer_scores(const SearchHead& h, const torch::Tensor& query,
                           const torch::Tensor& keys, std::int64_t n) {
  const std::int64_t pairs = h.theta.size(0), dim = 2 * pairs;
  ModelConfig cfg;
  cfg.family = Family::kGpt2;
  cfg.d_model = 2 * dim;  // [query | key] halves of the input; the head has 2·dim dims
  cfg.heads = cfg.kv_heads = 1;
  cfg.pos = PosEncoding::kRope;
  cfg.rotary_dim = static_cast<int>(dim);
  Attention attn(cfg);
  attn->to(torch::kFloat64);
  torch::NoGradGuard no_grad;
  auto w = attn->qkv->weight;  // [3 · 2dim, 2dim]: q rows 0.., k rows 2dim..
  w.zero_();
  attn->qkv->bias.zero_();
  // Halves layout: pair f is dims (f, f + F) of the rotary first `dim` dims; the search's
  // [F, 2] is (x_f, y_f). The head's other dims stay zero.
  for (std::int64_t d = 0; d < dim; ++d) {
    w[d][d] = std::sqrt(static_cast<double>(2 * dim));  // undo the 1/√(2dim) score scale
    w[2 * dim + d][dim + d] = 1.0;
  }
  PositionContext ctx = make_position_context(cfg, n, torch::kFloat64, AttentionPath::kBlockwise);
  const auto angles = torch::outer(torch::arange(n, torch::kFloat64), h.theta);
  ctx.cos = torch::cat({angles, angles}, 1).cos();
  ctx.sin = torch::cat({angles, angles}, 1).sin();
  const auto halves = [](const torch::Tensor& v) {  // [F, 2] unit → [2F] halves layout
    const auto u = v / v.norm();
    return torch::cat({u.select(1, 0), u.select(1, 1)});
  };
  auto x = torch::zeros({1, n, 2 * dim}, torch::kFloat64);
  x[0][n - 1].narrow(0, 0, dim).copy_(halves(query));
  for (std::int64_t j = 0; j < n; ++j) x[0][j].narrow(0, dim, dim).copy_(halves(keys[j]));
  return attn->query_scores(x, ctx, n - 1)[0][0];  // [n]: key j at distance n − 1 − j
}

TEST(HeadSearch, TheGapIsTheModelCodesAttentionGap) {
  const std::int64_t n = 24, pairs = 3;
  torch::manual_seed(5);
  SearchHead h{torch::rand({pairs}, torch::kFloat64) * 2,
               torch::randn({n - 1, pairs, 2}, torch::kFloat64),
               torch::randn({1, pairs, 2}, torch::kFloat64)};
  double worst = INFINITY;
  for (std::int64_t k = 1; k < n; ++k) {
    const auto scores = layer_scores(h, h.query[k - 1], h.key[0].expand({n, pairs, 2}), n);
    const double target = scores[n - 1 - k].item<double>();
    auto others = scores.clone();
    others[n - 1 - k] = -INFINITY;
    worst = std::min(worst, target - others.max().item<double>());
  }
  EXPECT_NEAR(head_gap(Construction::kIndex, h, n), worst, 1e-12);

  // Retrieval: for query symbol r, every placement of the match and of one distractor symbol.
  const std::int64_t symbols = 3, m = 6;
  SearchHead r{torch::rand({pairs}, torch::kFloat64),
               torch::randn({symbols, pairs, 2}, torch::kFloat64),
               torch::randn({symbols, pairs, 2}, torch::kFloat64)};
  double retrieval_worst = INFINITY;
  for (std::int64_t q = 0; q < symbols; ++q) {
    for (std::int64_t at = 0; at < m; ++at) {  // the match at distance `at`
      double best_rival = -INFINITY;
      for (std::int64_t s = 0; s < symbols; ++s) {
        if (s == q) continue;
        for (std::int64_t other = 0; other < m; ++other) {
          if (other == at) continue;
          auto keys = r.key[s].expand({m, pairs, 2}).clone();
          keys[m - 1 - at] = r.key[q];
          const auto scores = layer_scores(r, r.query[q], keys, m);
          best_rival = std::max(best_rival, scores[m - 1 - other].item<double>());
        }
      }
      auto keys = r.key[q].expand({m, pairs, 2}).clone();
      const double match = layer_scores(r, r.query[q], keys, m)[m - 1 - at].item<double>();
      retrieval_worst = std::min(retrieval_worst, match - best_rival);
    }
  }
  EXPECT_NEAR(head_gap(Construction::kRetrieval, r, m), retrieval_worst, 1e-12);
}

TEST(HeadSearch, TheDesignsHaveTheirClosedFormGaps) {
  for (std::int64_t n : {8, 64, 850}) {
    const double l = static_cast<double>(n);
    const SearchHead index = design_head(Construction::kIndex, n, 8, kPi / l, 0, 8);
    EXPECT_NEAR(head_gap(Construction::kIndex, index, n), 1 - std::cos(kPi / l), 1e-13) << n;
    const SearchHead even = design_head(Construction::kIndex, n, 8, 2 * kPi / l, 0, 8);
    EXPECT_NEAR(head_gap(Construction::kIndex, even, n), 1 - std::cos(2 * kPi / l), 1e-13) << n;
    const SearchHead retrieval = design_head(Construction::kRetrieval, n, 8, 0, kPi / 4, 8);
    EXPECT_NEAR(head_gap(Construction::kRetrieval, retrieval, n), 1 - std::cos(kPi / 4), 1e-13);
  }
  // Rotation costs retrieval what the constructions' rate says: a far match and a near rival.
  const double theta = 1e-3, omega = kPi / 4;
  const SearchHead rotated = design_head(Construction::kRetrieval, 200, 2, theta, omega, 8);
  EXPECT_LT(head_gap(Construction::kRetrieval, rotated, 200), 1 - std::cos(omega));
  EXPECT_GT(head_gap(Construction::kRetrieval, rotated, 200),
            1 - std::cos(omega - 200 * theta) - (1 - std::cos(200 * theta)) - 1e-12);
}

TEST(HeadSearch, OneFrequencyStaysUnderTheCircleCeiling) {
  // n points on a circle: some target has both neighbours within 2π/(n − 1) on average, so no
  // one-frequency head beats 1 − cos(2π/(n − 1)); the search starts at 1 − cos(2π/n).
  for (std::int64_t n : {8, 16, 32}) {
    const double l = static_cast<double>(n);
    HeadSearchOptions o;
    o.head_dim = 2;
    o.starts = 4;
    o.steps = 150;
    const HeadSearchPoint p = search_head(o, n);
    EXPECT_GE(p.best_gap, 1 - std::cos(2 * kPi / l) - 1e-15) << n;
    EXPECT_LE(p.best_gap, 1 - std::cos(2 * kPi / (l - 1)) + 1e-12) << n;
    EXPECT_EQ(p.start_gaps.size(), 4u);
    for (double g : p.start_gaps) EXPECT_LE(g, p.best_gap);
  }
}

TEST(HeadSearch, SeveralFrequenciesBreakTheOneFrequencyCeiling) {
  // The finding of docs/mech.md: four free frequencies address 64 positions with a gap far above
  // what one frequency can reach, from random starts alone.
  HeadSearchOptions o;
  o.head_dim = 8;
  o.starts = 3;
  o.steps = 300;
  const std::int64_t n = 64;
  SearchHead best;
  const HeadSearchPoint p = search_head(o, n, &best);
  double best_random = -INFINITY;
  for (double g : p.start_gaps) best_random = std::max(best_random, g);
  EXPECT_GT(best_random, 10 * (1 - std::cos(2 * kPi / (n - 1))));
  EXPECT_NEAR(head_gap(Construction::kIndex, best, n), p.best_gap, 1e-15);
  EXPECT_EQ(p.theta.size(), 4u);
  // Same seed, same numbers.
  EXPECT_EQ(search_head(o, n).best_gap, p.best_gap);
  // A sweep's next length starts from this head: with no random starts and one step, what it
  // reports at n = 80 is the warm head's (still far above one frequency's ceiling).
  HeadSearchOptions next = o;
  next.starts = 0;
  next.steps = 1;
  const HeadSearchPoint q = search_head(next, 80, nullptr, &best);
  EXPECT_TRUE(q.start_gaps.empty());
  EXPECT_GT(q.best_gap, 10 * (1 - std::cos(2 * kPi / 79)));
  EXPECT_LT(search_head(next, 80).best_gap, 1.5 * (1 - std::cos(2 * kPi / 80)));  // designs only
}

TEST(HeadSearch, AFixedScheduleKeepsItsFrequencies) {
  HeadSearchOptions o;
  o.function = Construction::kRetrieval;
  o.frequencies = SearchFrequencies::kRope;
  o.head_dim = 4;
  o.rope_theta = 100;
  o.starts = 1;
  o.steps = 20;
  const HeadSearchPoint p = search_head(o, 32);
  ASSERT_EQ(p.theta.size(), 2u);
  EXPECT_DOUBLE_EQ(p.theta[0], 1.0);
  EXPECT_DOUBLE_EQ(p.theta[1], 0.1);  // 100^(−2/4)
  EXPECT_GE(p.best_gap, p.construction_gap);
}

TEST(HeadSearch, BadOptionsAreRefused) {
  HeadSearchOptions o;
  o.head_dim = 7;
  EXPECT_THROW(validate(o), std::invalid_argument);
  o.head_dim = 512;
  EXPECT_THROW(validate(o), std::invalid_argument);
  o = {};
  o.rope_theta = 1;
  EXPECT_THROW(validate(o), std::invalid_argument);
  o = {};
  o.steps = 0;
  EXPECT_THROW(validate(o), std::invalid_argument);
  EXPECT_THROW(search_head({}, 1), std::invalid_argument);
  EXPECT_THROW(parse_search_frequencies("learned"), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
