// Inference-time RoPE scaling (ModelConfig::rope_scaling, arch/rope_scaling.h): the rotation
// tables against the two recipes computed here in double loops (pi: angle(p)/F; ntk: the base
// θ·F^(d/(d−2))), F = 1 leaving the logits bit for bit, F = 2 changing them, the parser's
// refusals and a model without rotary positions refused.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "../tiny_model.h"
#include "posbias/model/layers.h"
#include "posbias/model/transformer.h"

namespace posbias {
namespace {

// The angle of pair k at position p, as the recipe defines it (d rotary dims, base theta).
double expected_angle(const std::optional<RopeScaling>& s, double theta, std::int64_t d,
                      std::int64_t p, std::int64_t k) {
  const double exponent = -2.0 * static_cast<double>(k) / static_cast<double>(d);
  const double pos = static_cast<double>(p);
  if (!s) return pos * std::pow(theta, exponent);
  if (s->kind == RopeScalingKind::kPi) return pos / s->factor * std::pow(theta, exponent);
  const double dd = static_cast<double>(d);
  return pos * std::pow(theta * std::pow(s->factor, dd / (dd - 2.0)), exponent);
}

// The column of the [L, R] tables that holds pair k: halves (k and k + R/2) or interleaved (2k).
std::int64_t column_of(const ModelConfig& c, std::int64_t k) {
  return c.interleaved_rotary() ? 2 * k : k;
}

TEST(RopeScaling, RotationTablesFollowTheRecipes) {
  for (Family f : {Family::kQwen2, Family::kGptj}) {
    ModelConfig c = tiny_config(f, PosEncoding::kRope);
    c.rotary_dim = f == Family::kGptj ? 4 : 0;  // gptj: 4 of 4 dims, qwen2: the whole head (4)
    c.rope_theta = 500.0;
    for (const std::optional<RopeScaling>& s :
         {std::optional<RopeScaling>{}, std::optional<RopeScaling>{{RopeScalingKind::kPi, 2.0}},
          std::optional<RopeScaling>{{RopeScalingKind::kPi, 0.37}},
          std::optional<RopeScaling>{{RopeScalingKind::kNtk, 4.0}},
          std::optional<RopeScaling>{{RopeScalingKind::kNtk, 2.5}}}) {
      c.rope_scaling = s;
      const std::int64_t L = 40, d = c.rotary_dims();
      const PositionContext ctx =
          make_position_context(c, L, torch::kFloat64, AttentionPath::kDense);
      ASSERT_EQ(ctx.cos.size(1), d);
      double worst = 0;
      for (std::int64_t p = 0; p < L; ++p) {
        for (std::int64_t k = 0; k < d / 2; ++k) {
          const double a = expected_angle(s, c.rope_theta, d, p, k);
          const std::int64_t col = column_of(c, k);
          worst = std::max(worst, std::fabs(ctx.cos[p][col].item<double>() - std::cos(a)));
          worst = std::max(worst, std::fabs(ctx.sin[p][col].item<double>() - std::sin(a)));
        }
      }
      EXPECT_LT(worst, 1e-12) << to_string(f) << " " << (s ? to_string(*s) : "none");
    }
  }
}

TEST(RopeScaling, NtkKeepsTheFastestPairAndDividesTheSlowestByF) {
  ModelConfig c = tiny_config(Family::kQwen2, PosEncoding::kRope);  // head 4: pairs 0 and 1
  const std::int64_t L = 24;
  const PositionContext plain = make_position_context(c, L, torch::kFloat64, AttentionPath::kDense);
  c.rope_scaling = RopeScaling{RopeScalingKind::kNtk, 3.0};
  const PositionContext ntk = make_position_context(c, L, torch::kFloat64, AttentionPath::kDense);
  c.rope_scaling = RopeScaling{RopeScalingKind::kPi, 3.0};
  const PositionContext pi = make_position_context(c, L, torch::kFloat64, AttentionPath::kDense);
  // Pair 0 turns 1 radian per position unscaled; ntk keeps it, pi turns it 1/3.
  EXPECT_TRUE(torch::allclose(ntk.cos.select(1, 0), plain.cos.select(1, 0), 0, 1e-15));
  const auto third = torch::arange(L, torch::kFloat64) / 3.0;
  EXPECT_TRUE(torch::allclose(pi.cos.select(1, 0), third.cos(), 0, 1e-12));
  // The slowest pair (k = d/2 − 1 = 1): base^(−2/4) · F^(−(d/(d−2))·(2/4)) = its angle / F.
  const double slow = std::pow(c.rope_theta, -0.5) / 3.0;
  const auto want = torch::arange(L, torch::kFloat64) * slow;
  EXPECT_TRUE(torch::allclose(ntk.cos.select(1, 1), want.cos(), 0, 1e-12));
  EXPECT_TRUE(torch::allclose(ntk.sin.select(1, 1), want.sin(), 0, 1e-12));
}

TEST(RopeScaling, FactorOneGivesTheSameLogitsBitForBitAndTwoChangesThem) {
  for (Family f : {Family::kQwen2, Family::kGptj, Family::kLlama, Family::kGpt2}) {
    ModelConfig c = tiny_config(f, PosEncoding::kRope);
    if (f == Family::kGptj) c.rotary_dim = 4;
    Transformer m(c);
    m->init_weights(7);
    m->eval();
    torch::NoGradGuard g;
    const auto ids = torch::randint(0, c.vocab, {2, 20}, torch::kLong);
    const auto base = m->forward(ids);
    for (RopeScalingKind kind : {RopeScalingKind::kPi, RopeScalingKind::kNtk}) {
      m->set_rope_scaling(RopeScaling{kind, 1.0});
      EXPECT_TRUE(torch::equal(m->forward(ids), base)) << to_string(f) << " " << to_string(kind);
      m->set_rope_scaling(RopeScaling{kind, 2.0});
      EXPECT_FALSE(torch::allclose(m->forward(ids), base))
          << to_string(f) << " " << to_string(kind);
      m->set_rope_scaling(std::nullopt);
      EXPECT_TRUE(torch::equal(m->forward(ids), base)) << to_string(f) << " back to none";
    }
  }
}

TEST(RopeScaling, AModelWithoutRotaryPositionsIsRefusedAndUnchanged) {
  for (PosEncoding pos : {PosEncoding::kLearned, PosEncoding::kAlibi, PosEncoding::kNone}) {
    Transformer m(tiny_config(Family::kQwen2, pos));
    try {
      m->set_rope_scaling(RopeScaling{RopeScalingKind::kPi, 2.0});
      ADD_FAILURE() << to_string(pos) << " took a RoPE scaling";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("rotary"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
    EXPECT_FALSE(m->config().rope_scaling.has_value()) << to_string(pos);
    ModelConfig c = tiny_config(Family::kGpt2, pos);
    c.rope_scaling = RopeScaling{RopeScalingKind::kNtk, 2.0};
    EXPECT_THROW(c.validate(), std::invalid_argument) << to_string(pos);
  }
  // ntk needs d >= 4: its exponent d/(d−2) has no value at 2 rotary dims.
  ModelConfig two = tiny_config(Family::kGptj, PosEncoding::kRope);  // rotates 2 dims
  two.rope_scaling = RopeScaling{RopeScalingKind::kNtk, 2.0};
  EXPECT_THROW(two.validate(), std::invalid_argument);
  two.rope_scaling = RopeScaling{RopeScalingKind::kPi, 2.0};
  EXPECT_NO_THROW(two.validate());
  // A bad factor set directly (not parsed) is refused too, and leaves the model as it was.
  Transformer m(tiny_config(Family::kQwen2, PosEncoding::kRope));
  EXPECT_THROW(m->set_rope_scaling(RopeScaling{RopeScalingKind::kPi, 0.0}), std::invalid_argument);
  EXPECT_FALSE(m->config().rope_scaling.has_value());
}

TEST(RopeScaling, ParsesKindAndFactorAndRefusesBadTextInOneLine) {
  const RopeScaling pi = parse_rope_scaling("pi:2");
  EXPECT_EQ(pi.kind, RopeScalingKind::kPi);
  EXPECT_EQ(pi.factor, 2.0);
  const RopeScaling ntk = parse_rope_scaling("ntk:0.5");
  EXPECT_EQ(ntk.kind, RopeScalingKind::kNtk);
  EXPECT_EQ(ntk.factor, 0.5);
  EXPECT_EQ(to_string(ntk), "ntk:0.5");
  EXPECT_EQ(parse_rope_scaling(to_string(RopeScaling{RopeScalingKind::kPi, 0.1})).factor, 0.1);
  for (const std::string bad : {"pi:0", "pi:-1", "ntk:-0.5", "pi:x", "pi:", "pi:2x", "pi:nan",
                                "pi:inf", "pi:1e400", "yarn:2", "PI:2", "pi", "2", ""}) {
    try {
      parse_rope_scaling(bad);
      ADD_FAILURE() << "'" << bad << "' was taken";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("--rope-scaling"), std::string::npos) << bad << ": " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << bad << ": " << what;
    }
  }
}

}  // namespace
}  // namespace posbias
