// The fused short-input attention (fused_attention.h) against the layer's GEMM path run in
// float64 as the reference: outputs and the gradients of the input and of both projections, for
// interleaved partial rotary (gptj), rotate-half over whole heads (llama, heads = kv heads),
// ALiBi and no positions (gpt2), with and without attention dropout (the same masks from the
// same stream), and a length that is not a multiple of the vector width. Evaluation (no grad)
// and caching forwards keep the GEMM path bit for bit.
#include "posbias/model/fused_attention.h"

#include <gtest/gtest.h>

#include "../tiny_model.h"
#include "posbias/model/layers.h"

namespace posbias {
namespace {

struct Outcome {
  torch::Tensor y, dx, dqkv, dout;  // all float64
};

// Attention forward (cache: the GEMM path) and backward with a fixed cotangent, in `dtype`.
Outcome run(Attention& attn, const torch::Tensor& x0, const torch::Tensor& w, torch::Dtype dtype,
            const ModelConfig& cfg, bool use_cache, double dropout) {
  attn->to(dtype);
  for (auto& p : attn->parameters()) p.mutable_grad() = torch::Tensor();
  auto x = x0.detach().to(dtype).clone().requires_grad_(true);
  PositionContext pos = make_position_context(cfg, x.size(1), dtype);
  if (dropout > 0) pos.dropout = std::make_shared<DropoutSource>(DropoutSource{Rng(5), dropout});
  AttentionCache cache;
  const auto y = attn->forward(x, pos, use_cache ? &cache : nullptr);
  (y * w.to(dtype)).sum().backward();
  auto d = [](const torch::Tensor& t) { return t.to(torch::kFloat64); };
  return {d(y.detach()), d(x.grad()), d(attn->qkv->weight.grad()), d(attn->out->weight.grad())};
}

double relative(const torch::Tensor& a, const torch::Tensor& ref) {
  return ((a - ref).abs().max() / (ref.abs().max() + 1e-30)).item<double>();
}

void expect_close(const Outcome& got, const Outcome& ref, double tol, const std::string& tag) {
  EXPECT_LT(relative(got.y, ref.y), tol) << tag << " output";
  EXPECT_LT(relative(got.dx, ref.dx), tol) << tag << " dx";
  EXPECT_LT(relative(got.dqkv, ref.dqkv), tol) << tag << " qkv weight gradient";
  EXPECT_LT(relative(got.dout, ref.dout), tol) << tag << " out weight gradient";
}

ModelConfig config(Family f, PosEncoding pos) {
  ModelConfig c = tiny_config(f, pos);
  c.kv_heads = c.heads;  // the fused kernel serves heads = kv heads; GQA takes the GEMM path
  c.rotary_dim = f == Family::kGptj ? 2 : 0;
  return c;
}

TEST(FusedAttention, MatchesTheFloat64GemmPath) {
  const std::pair<Family, PosEncoding> cases[] = {{Family::kGptj, PosEncoding::kRope},
                                                  {Family::kLlama, PosEncoding::kRope},
                                                  {Family::kGpt2, PosEncoding::kAlibi},
                                                  {Family::kGpt2, PosEncoding::kNone}};
  for (const auto& [family, encoding] : cases) {
    for (std::int64_t length : {1, 17, 31}) {
      for (double dropout : {0.0, 0.25}) {
        const ModelConfig cfg = config(family, encoding);
        torch::manual_seed(3);
        Attention attn(cfg);
        const auto x = torch::randn({3, length, cfg.d_model});
        const auto w = torch::randn({3, length, cfg.d_model});
        ASSERT_TRUE(
            fused_attention_applies(x, make_position_context(cfg, length, torch::kFloat32).bias));
        const std::string tag = to_string(family) + "/" + to_string(encoding) + " L " +
                                std::to_string(length) + " dropout " + std::to_string(dropout);
        const Outcome fused = run(attn, x, w, torch::kFloat32, cfg, false, dropout);
        const Outcome gemm = run(attn, x, w, torch::kFloat32, cfg, true, dropout);
        const Outcome ref = run(attn, x, w, torch::kFloat64, cfg, true, dropout);
        expect_close(fused, ref, 2e-6, tag + " fused");
        expect_close(gemm, ref, 2e-6, tag + " gemm");  // the bound is float32's, not loose
        // The fused kernel ran (its sums differ in the last bits from the GEMM path's).
        if (length > 1) {
          EXPECT_FALSE(torch::equal(fused.y, gemm.y)) << tag;
        }
        // A wrong kernel is far off: a mask of other draws moves the output at order 1.
        if (dropout > 0) {
          const Outcome other = run(attn, x, w, torch::kFloat64, cfg, true, 0.5);
          EXPECT_GT(relative(other.y, ref.y), 1e-2) << tag;
        }
      }
    }
  }
}

TEST(FusedAttention, EvaluationAndCachingForwardsKeepTheGemmPath) {
  const ModelConfig cfg = config(Family::kGptj, PosEncoding::kRope);
  torch::manual_seed(4);
  Attention attn(cfg);
  const auto x = torch::randn({2, 17, cfg.d_model});
  const PositionContext pos = make_position_context(cfg, 17, torch::kFloat32);
  AttentionCache cache;
  const auto cached = attn->forward(x, pos, &cache).detach();
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(attn->forward(x, pos), cached));
}

TEST(FusedAttention, RefusesOtherOperands) {
  const auto bias = torch::zeros({1, 17, 17});
  EXPECT_TRUE(fused_attention_applies(torch::zeros({2, 17, 48}), bias));
  EXPECT_FALSE(fused_attention_applies(torch::zeros({2, 17, 48}, torch::kFloat64), bias));
  EXPECT_FALSE(fused_attention_applies(torch::zeros({2, kFusedAttentionMaxLength + 1, 48}),
                                       torch::zeros({1, 65, 65})));
}

}  // namespace
}  // namespace posbias
