// Head scores against independent references: the swapped attention row equals a brute-force
// recompute of the layer on swapped inputs (every family and position scheme), the scores
// equal a plain-loop implementation of their definition on those brute-force rows, and hand-built
// heads with a known answer score exactly: a pure relative-position head is positional, a
// pure content-match head is symbolic, a flat head is uniform.
#include "posbias/mech/head_scores.h"

#include <gtest/gtest.h>

#include <cmath>

#include "posbias/mech/constructions.h"

namespace posbias {
namespace {

ModelConfig small(Family family, PosEncoding pos) {
  ModelConfig c = family_default(family);
  c.d_model = 16;
  c.heads = 4;
  c.kv_heads = family == Family::kQwen2 ? 2 : 4;
  c.layers = 1;
  c.mlp = 32;
  c.vocab = 50;
  c.rotary_dim = family == Family::kGptj ? 2 : 0;
  c.pos = pos;
  return c;
}

// Attention of the query (last position) after really swapping rows i and j of x.
torch::Tensor brute_force_row(Attention& attn, const torch::Tensor& x, const PositionContext& pos,
                              std::int64_t i, std::int64_t j) {
  auto swapped = x.clone();
  swapped.select(1, i).copy_(x.select(1, j));
  swapped.select(1, j).copy_(x.select(1, i));
  AttentionCache cache;
  attn->forward(swapped, pos, &cache);
  return cache.pattern.select(2, x.size(1) - 1).to(torch::kFloat64);  // [B, H, L]
}

struct Case {
  Family family;
  PosEncoding pos;
};

TEST(HeadScores, SwappedRowEqualsRecomputingTheLayer) {
  torch::manual_seed(3);
  for (const Case c :
       {Case{Family::kGptj, PosEncoding::kRope}, Case{Family::kQwen2, PosEncoding::kRope},
        Case{Family::kGpt2, PosEncoding::kLearned}, Case{Family::kGpt2, PosEncoding::kAlibi}}) {
    const ModelConfig cfg = small(c.family, c.pos);
    Attention attn(cfg);
    torch::NoGradGuard no_grad;
    for (auto& p : attn->parameters()) p.normal_(0.0, 0.5);  // sharp, uneven attention
    const std::int64_t len = 7;
    const PositionContext pos = make_position_context(cfg, len, torch::kFloat32);
    const auto x = torch::randn({2, len, cfg.d_model});
    const SwapAttention s = swap_attention(attn, x, pos);
    AttentionCache cache;
    attn->forward(x, pos, &cache);
    EXPECT_LT(
        (s.a - cache.pattern.select(2, len - 1).to(torch::kFloat64)).abs().max().item<double>(),
        1e-6);
    for (std::int64_t i = 0; i < len - 1; ++i) {
      for (std::int64_t j = i + 1; j < len - 1; ++j) {
        const auto row = brute_force_row(attn, x, pos, i, j);
        const double di =
            (s.swapped_i.select(2, i).select(2, j) - row.select(2, i)).abs().max().item<double>();
        const double dj =
            (s.swapped_j.select(2, i).select(2, j) - row.select(2, j)).abs().max().item<double>();
        EXPECT_LT(di, 2e-6) << to_string(c.family) << " " << to_string(c.pos) << " pair " << i
                            << "," << j;
        EXPECT_LT(dj, 2e-6) << to_string(c.family) << " " << to_string(c.pos) << " pair " << i
                            << "," << j;
      }
    }
  }
}

TEST(HeadScores, ScoresEqualAPlainLoopOverBruteForceSwaps) {
  torch::manual_seed(5);
  const ModelConfig cfg = small(Family::kGptj, PosEncoding::kRope);
  Attention attn(cfg);
  torch::NoGradGuard no_grad;
  for (auto& p : attn->parameters()) p.normal_(0.0, 0.3);
  const std::int64_t len = 6, batch = 3;
  const double tau = 0.05;  // soft enough that every pair counts
  const PositionContext pos = make_position_context(cfg, len, torch::kFloat32);
  const auto x = torch::randn({batch, len, cfg.d_model});
  const auto scores = score_attention_heads(attn, x, pos, tau);
  AttentionCache cache;
  attn->forward(x, pos, &cache);
  const auto a = cache.pattern.select(2, len - 1).to(torch::kFloat64);
  for (std::int64_t h = 0; h < cfg.heads; ++h) {
    double pos_sum = 0, sym_sum = 0;
    for (std::int64_t b = 0; b < batch; ++b) {
      double wsum = 0, p = 0, s = 0, top = 0;
      for (std::int64_t i = 0; i < len - 1; ++i)
        for (std::int64_t j = i + 1; j < len - 1; ++j)
          top =
              std::max(top, std::abs(a[b][h][i].item<double>() - a[b][h][j].item<double>()) / tau);
      for (std::int64_t i = 0; i < len - 1; ++i) {
        for (std::int64_t j = i + 1; j < len - 1; ++j) {
          const auto row = brute_force_row(attn, x, pos, i, j);
          const double ai = a[b][h][i].item<double>(), aj = a[b][h][j].item<double>();
          const double pi = row[b][h][i].item<double>(), pj = row[b][h][j].item<double>();
          const double w = std::exp(std::abs(ai - aj) / tau - top);
          const double norm = std::hypot(ai, aj) * std::hypot(pi, pj);
          wsum += w;
          p += w * (pi * ai + pj * aj) / norm;
          s += w * (pi * aj + pj * ai) / norm;
        }
      }
      pos_sum += p / wsum;
      sym_sum += s / wsum;
    }
    EXPECT_NEAR(scores[h].positional, pos_sum / batch, 1e-5) << "head " << h;
    EXPECT_NEAR(scores[h].symbolic, sym_sum / batch, 1e-5) << "head " << h;
  }
}

std::vector<Example> examples(Task task, int length, int count) {
  DatasetSpec spec;
  spec.task = task;
  spec.hops = {1};
  spec.length = length;
  spec.count = count;
  return make_dataset(spec);
}

// The constructions with sharpened logits: the index head attends "k back" whatever the
// content, the retrieval head (θ = 0) attends to the matching symbol wherever it is.
TEST(HeadScores, HandBuiltHeadsScoreExactly) {
  torch::NoGradGuard no_grad;
  const int n = 17;
  {
    Attention index = make_construction_layer(Construction::kIndex);
    index->qkv->weight.narrow(0, 0, 4).mul_(30.0);
    const double theta = 3.14159265358979 / n;
    const auto x =
        construction_inputs(Construction::kIndex, examples(Task::kNumber, n, 32), theta, 0);
    const auto s = score_attention_heads(index, x, construction_positions(n, theta));
    EXPECT_NEAR(s[0].positional, 1.0, 1e-12);
    EXPECT_LT(s[0].symbolic, 0.05);
    EXPECT_EQ(s[0].label, HeadLabel::kPositional);
  }
  {
    Attention retrieval = make_construction_layer(Construction::kRetrieval);
    retrieval->qkv->weight.narrow(0, 0, 4).mul_(30.0);
    const double omega = 2 * 3.14159265358979 / 8;
    const auto x =
        construction_inputs(Construction::kRetrieval, examples(Task::kLetter, n, 32), 0, omega);
    const auto s = score_attention_heads(retrieval, x, construction_positions(n, 0));
    EXPECT_NEAR(s[0].symbolic, 1.0, 1e-12);
    EXPECT_LT(s[0].positional, 0.05);
    EXPECT_EQ(s[0].label, HeadLabel::kSymbolic);
  }
  {
    // The reflexive construction: the query attends to itself, the swaps of earlier positions
    // move no attention, and the self score says what the head does.
    Attention reflexive = make_construction_layer(Construction::kReflexive);
    reflexive->qkv->bias.narrow(0, 0, 4).mul_(1000.0);  // a gap of 1000·(1 − cos(π/17)) ≈ 17
    const double theta = 3.14159265358979 / n;
    const auto x =
        construction_inputs(Construction::kReflexive, examples(Task::kNumber, n, 8), theta, 0);
    const auto s = score_attention_heads(reflexive, x, construction_positions(n, theta));
    EXPECT_GT(s[0].self, 0.99);
    EXPECT_LT(s[0].gap, 0.01);
    EXPECT_EQ(s[0].label, HeadLabel::kReflexive);
  }
  {
    Attention flat = make_construction_layer(Construction::kRetrieval);
    flat->qkv->weight.narrow(0, 0, 4).zero_();  // q = 0: every logit equal
    const auto x =
        construction_inputs(Construction::kRetrieval, examples(Task::kLetter, n, 8), 0, 1.0);
    const auto s = score_attention_heads(flat, x, construction_positions(n, 0));
    EXPECT_LT(s[0].gap, 1e-12);
    EXPECT_EQ(s[0].label, HeadLabel::kUniform);
  }
}

TEST(HeadScores, LabelsFollowTheThresholds) {
  EXPECT_EQ(head_label(0.95, 0.1, 0.5), HeadLabel::kPositional);
  EXPECT_EQ(head_label(0.1, 0.95, 0.5), HeadLabel::kSymbolic);
  EXPECT_EQ(head_label(0.7, 0.6, 0.5), HeadLabel::kMixed);
  EXPECT_EQ(head_label(0.95, 0.95, 0.5), HeadLabel::kUniform);
  EXPECT_EQ(head_label(0.99, 0.0, 0.001), HeadLabel::kUniform);
  // The threshold moves the labels, not the scores.
  EXPECT_EQ(head_label(0.87, 0.1, 0.5), HeadLabel::kMixed);
  EXPECT_EQ(head_label(0.87, 0.1, 0.5, 0.0, 0.85), HeadLabel::kPositional);
  EXPECT_EQ(head_label(0.97, 0.1, 0.5, 0.0, 0.98), HeadLabel::kMixed);
  // A query that attends to itself passes on its own token, whatever the swaps say.
  EXPECT_EQ(head_label(1.0, 1.0, 0.0, 0.95), HeadLabel::kReflexive);
  EXPECT_EQ(head_label(1.0, 1.0, 0.0, 0.95, 0.96), HeadLabel::kUniform);
}

TEST(HeadScores, PairTilesEqualOneTile) {
  // Tiles of 7 over 39 pairs' rows: partial tiles, diagonal tiles and the online softmax. In
  // double precision, so that only the order of the sums differs.
  torch::manual_seed(11);
  for (const Case c :
       {Case{Family::kQwen2, PosEncoding::kRope}, Case{Family::kGpt2, PosEncoding::kAlibi}}) {
    const ModelConfig cfg = small(c.family, c.pos);
    Attention attn(cfg);
    attn->to(torch::kFloat64);
    torch::NoGradGuard no_grad;
    for (auto& p : attn->parameters()) p.normal_(0.0, 0.4);
    const std::int64_t len = 40;
    const PositionContext pos = make_position_context(cfg, len, torch::kFloat64);
    const auto x = torch::randn({2, len, cfg.d_model}, torch::kFloat64);
    for (double tau : {kHeadScoreTau, 0.05}) {
      const auto whole = score_attention_heads(attn, x, pos, tau, /*tile=*/len);
      const auto tiled = score_attention_heads(attn, x, pos, tau, /*tile=*/7);
      ASSERT_EQ(whole.size(), tiled.size());
      for (std::size_t h = 0; h < whole.size(); ++h) {
        EXPECT_NEAR(whole[h].positional, tiled[h].positional, 1e-12) << to_string(c.family);
        EXPECT_NEAR(whole[h].symbolic, tiled[h].symbolic, 1e-12) << to_string(c.family);
        EXPECT_NEAR(whole[h].gap, tiled[h].gap, 1e-12) << to_string(c.family);
      }
    }
  }
}

TEST(HeadScores, ModelScoresCoverEveryLayerAndHead) {
  ModelConfig cfg = small(Family::kGptj, PosEncoding::kRope);
  cfg.layers = 3;
  Transformer model(cfg);
  model->init_weights(1);
  model->train();
  const auto ids = torch::randint(cfg.vocab, {10, 9});
  const auto scores = score_heads(model, ids, kHeadScoreTau, /*batch=*/4);
  ASSERT_EQ(scores.size(), 12u);
  EXPECT_TRUE(model->is_training());  // restored
  for (const HeadScore& h : scores) {
    EXPECT_EQ(h.layer * 4 + h.head, &h - scores.data());
    EXPECT_GE(h.positional, -1e-9);
    EXPECT_LE(h.positional, 1 + 1e-9);
  }
  // Batching does not change the mean or its interval.
  const auto whole = score_heads(model, ids, kHeadScoreTau, /*batch=*/64);
  for (std::size_t k = 0; k < scores.size(); ++k) {
    EXPECT_NEAR(scores[k].symbolic, whole[k].symbolic, 1e-9);
    EXPECT_NEAR(scores[k].symbolic_high, whole[k].symbolic_high, 1e-9);
  }
  // The interval is the 95% t interval of the ten samples' own scores, each measured alone:
  // mean ∓ 2.262·s/√10.
  std::vector<std::vector<double>> positional(scores.size());
  for (std::int64_t b = 0; b < ids.size(0); ++b) {
    const auto one = score_heads(model, ids.narrow(0, b, 1), kHeadScoreTau, 1);
    for (std::size_t k = 0; k < one.size(); ++k) {
      positional[k].push_back(one[k].positional);
      EXPECT_TRUE(std::isnan(one[k].positional_low));  // one sample: no interval
    }
  }
  for (std::size_t k = 0; k < scores.size(); ++k) {
    double mean = 0, ss = 0;
    for (double v : positional[k]) mean += v / 10;
    for (double v : positional[k]) ss += (v - mean) * (v - mean);
    const double half = 2.2621571627409915 * std::sqrt(ss / 9) / std::sqrt(10.0);
    EXPECT_NEAR(scores[k].positional, mean, 1e-9);
    EXPECT_NEAR(scores[k].positional_low, mean - half, 1e-9);
    EXPECT_NEAR(scores[k].positional_high, mean + half, 1e-9);
  }
}

TEST(HeadScores, BlockwiseAttentionGivesTheDenseScores) {
  // Past 128 keys the blockwise forward runs several key tiles; the block inputs it leaves for
  // the scores must be the dense path's.
  for (const Case c :
       {Case{Family::kQwen2, PosEncoding::kRope}, Case{Family::kGpt2, PosEncoding::kLearned}}) {
    ModelConfig cfg = small(c.family, c.pos);
    cfg.layers = 2;
    cfg.max_positions = 512;
    Transformer model(cfg);
    model->init_weights(2);
    const auto ids = torch::randint(cfg.vocab, {2, 300});
    const auto dense = score_heads(model, ids, 0.05);
    model->set_attention(AttentionPath::kBlockwise);
    const auto blockwise = score_heads(model, ids, 0.05);
    for (std::size_t k = 0; k < dense.size(); ++k) {
      EXPECT_NEAR(dense[k].positional, blockwise[k].positional, 1e-5) << to_string(c.family);
      EXPECT_NEAR(dense[k].symbolic, blockwise[k].symbolic, 1e-5) << to_string(c.family);
    }
  }
}

// The plan of `heads` counts what grows with --samples: the [samples, L] int64 ids and every
// sample's two float64 scores per head (the omission that let 20000 samples of 65536 ids, 10.5
// GB, be made before any plan).
TEST(HeadScores, ScoringPlanGrowsWithTheSamples) {
  const ModelConfig cfg = small(Family::kGpt2, PosEncoding::kRope);
  for (AttentionPath path : {AttentionPath::kDense, AttentionPath::kBlockwise}) {
    const double one = head_scoring_bytes(cfg, 100, 1024, path);
    const double two = head_scoring_bytes(cfg, 200, 1024, path);
    const double per_sample = 1024 * 8.0 + 2.0 * 8.0 * static_cast<double>(cfg.layers * cfg.heads);
    EXPECT_NEAR(two - one, 100 * per_sample, 1e-6 * two) << to_string(path);
  }
  EXPECT_GT(head_scoring_bytes(cfg, 20000, 65536, AttentionPath::kBlockwise), 20000 * 65536 * 8.0);
}

}  // namespace
}  // namespace posbias
