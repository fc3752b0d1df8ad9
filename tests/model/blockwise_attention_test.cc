// Blockwise attention against the dense path it replaces: the kernels against softmax and
// autograd on [L, L] scores (tiles that do not divide L, windows, ALiBi), and whole models of
// every family and positional encoding at L = 1024 — forward, training gradients, exact and
// Hutchinson Jacobians, with and without activation checkpointing — to 1e-5 in float32 and
// 1e-10 in float64.
#include "posbias/model/blockwise_attention.h"

#include <gtest/gtest.h>

#include <limits>

#include "../tiny_model.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/transformer.h"

namespace posbias {
namespace {

double relative_error(const torch::Tensor& a, const torch::Tensor& b) {
  const auto ad = a.to(torch::kFloat64), bd = b.to(torch::kFloat64);
  return ((ad - bd).abs().max() / bd.abs().max().clamp_min(1e-300)).item<double>();
}

struct DenseAttention {
  torch::Tensor z, lse;
};

DenseAttention dense(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                     const ScoreBias& bias, double scale) {
  const auto l = q.size(2);
  const auto s = torch::matmul(q, k.transpose(-1, -2)) * scale + bias.tile(0, l, 0, l);
  return {torch::matmul(torch::softmax(s, -1), v), torch::logsumexp(s, -1)};
}

std::vector<ScoreBias> bias_rules(std::int64_t heads) {
  const auto slopes =
      torch::exp2(-8.0 * torch::arange(1, heads + 1, torch::kFloat64) / static_cast<double>(heads));
  return {ScoreBias{}, ScoreBias{50, {}}, ScoreBias{0, slopes}, ScoreBias{37, slopes}};
}

TEST(BlockwiseAttention, KernelsEqualSoftmaxAndAutograd) {
  torch::manual_seed(1);
  const std::int64_t b = 2, h = 3, l = 300, e = 8, cot = 3;
  const double scale = 0.35;
  const auto q = torch::randn({b, h, l, e}, torch::kFloat64) * 2;
  const auto k = torch::randn({b, h, l, e}, torch::kFloat64) * 2;
  const auto v = torch::randn({b, h, l, e}, torch::kFloat64);
  const auto dz = torch::randn({cot, b, h, l, e}, torch::kFloat64);
  for (const ScoreBias& rule : bias_rules(h)) {
    const std::string name =
        "window " + std::to_string(rule.window) + (rule.slopes.defined() ? " alibi" : "");
    for (std::int64_t tile : {64, 128, 512}) {
      const auto want = dense(q, k, v, rule, scale);
      const auto got = blockwise_attention(q, k, v, rule, scale, tile);
      EXPECT_LT(relative_error(got.z, want.z), 1e-12) << name << " tile " << tile;
      EXPECT_LT(relative_error(got.lse, want.lse), 1e-12) << name << " tile " << tile;
      const auto grads =
          blockwise_attention_backward(q, k, v, got.z, got.lse, dz, rule, scale, tile);
      for (std::int64_t c = 0; c < cot; ++c) {
        const auto qg = q.clone().requires_grad_(true), kg = k.clone().requires_grad_(true),
                   vg = v.clone().requires_grad_(true);
        const auto f = (dense(qg, kg, vg, rule, scale).z * dz[c]).sum();
        const auto g = torch::autograd::grad({f}, {qg, kg, vg});
        EXPECT_LT(relative_error(grads.dq[c], g[0]), 1e-11) << name << " dq, tile " << tile;
        EXPECT_LT(relative_error(grads.dk[c], g[1]), 1e-11) << name << " dk, tile " << tile;
        EXPECT_LT(relative_error(grads.dv[c], g[2]), 1e-11) << name << " dv, tile " << tile;
      }
      const auto p =
          torch::softmax(torch::matmul(q, k.transpose(-1, -2)) * scale + rule.tile(0, l, 0, l), -1);
      for (std::int64_t row : {std::int64_t{0}, std::int64_t{1}, std::int64_t{150}, l - 1}) {
        EXPECT_LT(relative_error(attention_row(q, k, got.lse, rule, scale, row), p.select(2, row)),
                  1e-12)
            << name << " row " << row;
      }
      const auto entropy = -(p * torch::log(p.clamp_min(1e-300))).sum(-1);
      EXPECT_LT(relative_error(attention_entropy(q, k, got.lse, rule, scale, tile), entropy), 1e-11)
          << name;
    }
  }
}

// float32 runs its own tile loops (blockwise_kernels.cc: per-head threads, oneDNN products, a
// polynomial exp): the same numbers as the float64 torch-op path above to float32 precision,
// on every rule, on tiles that do not divide L, with sharp rows (large scores) and flat ones;
// the entropy its forward accumulates equals attention_entropy's float64 recomputation.
TEST(BlockwiseAttention, Float32KernelsEqualFloat64) {
  torch::manual_seed(2);
  const std::int64_t b = 2, h = 3, l = 300, e = 16, cot = 3;
  const double scale = 0.25;
  for (const double sharpness : {0.3, 4.0}) {
    const auto q = torch::randn({b, h, l, e}, torch::kFloat64) * sharpness;
    const auto k = torch::randn({b, h, l, e}, torch::kFloat64) * sharpness;
    const auto v = torch::randn({b, h, l, e}, torch::kFloat64);
    const auto dz = torch::randn({cot, b, h, l, e}, torch::kFloat64);
    auto f32 = [](const torch::Tensor& t) { return t.to(torch::kFloat32); };
    for (const ScoreBias& rule : bias_rules(h)) {
      const std::string name = "window " + std::to_string(rule.window) +
                               (rule.slopes.defined() ? " alibi" : "") + " sharpness " +
                               std::to_string(sharpness);
      for (std::int64_t tile : {64, 128, 512}) {
        const auto want = blockwise_attention(q, k, v, rule, scale, tile);
        const auto got =
            blockwise_attention(f32(q), f32(k), f32(v), rule, scale, tile, /*entropy=*/true);
        ASSERT_EQ(got.z.scalar_type(), torch::kFloat32);
        EXPECT_LT(relative_error(got.z, want.z), 1e-5) << name << " tile " << tile;
        EXPECT_LT(relative_error(got.lse, want.lse), 1e-5) << name << " tile " << tile;
        EXPECT_LT(relative_error(got.entropy, attention_entropy(q, k, want.lse, rule, scale, tile)),
                  1e-5)
            << name << " entropy, tile " << tile;
        const auto want_g =
            blockwise_attention_backward(q, k, v, want.z, want.lse, dz, rule, scale, tile);
        const auto got_g = blockwise_attention_backward(f32(q), f32(k), f32(v), got.z, got.lse,
                                                        f32(dz), rule, scale, tile);
        EXPECT_LT(relative_error(got_g.dq, want_g.dq), 1e-5) << name << " dq, tile " << tile;
        EXPECT_LT(relative_error(got_g.dk, want_g.dk), 1e-5) << name << " dk, tile " << tile;
        EXPECT_LT(relative_error(got_g.dv, want_g.dv), 1e-5) << name << " dv, tile " << tile;
      }
    }
  }
}

struct ModelCase {
  Family family;
  PosEncoding pos;
  std::int64_t window;
};

std::string name_of(const ModelCase& c, torch::Dtype dtype) {
  return to_string(c.family) + "/" + to_string(c.pos) +
         (c.window > 0 ? " window " + std::to_string(c.window) : "") +
         (dtype == torch::kFloat64 ? " f64" : " f32");
}

std::vector<ModelCase> model_cases() {
  std::vector<ModelCase> cases;
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj}) {
    for (PosEncoding pos :
         {PosEncoding::kLearned, PosEncoding::kRope, PosEncoding::kNone, PosEncoding::kAlibi})
      cases.push_back({f, pos, 0});
  }
  cases.push_back({Family::kQwen2, PosEncoding::kRope, 200});  // sliding window with GQA
  return cases;
}

constexpr std::int64_t kLength = 1024;

Transformer model_for(const ModelCase& c, torch::Dtype dtype) {
  ModelConfig cfg = tiny_config(c.family, c.pos);
  cfg.layers = 2;
  cfg.max_positions = kLength;
  cfg.window = c.window;
  Transformer m(cfg);
  m->init_weights(7);
  {  // sharper attention than at init, so the softmax is far from uniform
    torch::NoGradGuard no_grad;
    for (auto& layer : m->layers) layer->attn->qkv->weight.mul_(8.0);
  }
  m->to(dtype);
  return m;
}

double tolerance(torch::Dtype dtype) { return dtype == torch::kFloat64 ? 1e-10 : 1e-5; }

TEST(BlockwiseAttention, ModelsForwardAndTrainingGradientsEqualDense) {
  for (const ModelCase& c : model_cases()) {
    for (auto dtype : {torch::kFloat64, torch::kFloat32}) {
      Transformer m = model_for(c, dtype);
      m->train();
      torch::manual_seed(3);
      const auto ids = torch::randint(m->config().vocab, {1, kLength});
      const auto target = torch::randint(m->config().vocab, {kLength});
      std::vector<torch::Tensor> grads[2];
      torch::Tensor logits[2];
      for (AttentionPath path : {AttentionPath::kDense, AttentionPath::kBlockwise}) {
        const int i = path == AttentionPath::kDense ? 0 : 1;
        m->set_attention(path);
        m->zero_grad();
        logits[i] = m->forward(ids);
        torch::nn::functional::cross_entropy(logits[i].view({-1, logits[i].size(-1)}), target)
            .backward();
        for (const auto& p : m->parameters()) grads[i].push_back(p.grad().clone());
      }
      const std::string name = name_of(c, dtype);
      EXPECT_LT(relative_error(logits[1], logits[0]), tolerance(dtype)) << name << " logits";
      for (std::size_t p = 0; p < grads[0].size(); ++p) {
        EXPECT_LT(relative_error(grads[1][p], grads[0][p]), tolerance(dtype))
            << name << " gradient of parameter " << p;
      }
    }
  }
}

// Every case in both dtypes: the exact profile by chunk. In float64 also block by block, the
// Hutchinson estimate and both with activation checkpointing (block inputs only, recomputed),
// the Hutchinson probes also one per pass.
TEST(BlockwiseAttention, ExactAndHutchinsonJacobiansEqualDense) {
  for (const ModelCase& c : model_cases()) {
    for (auto dtype : {torch::kFloat64, torch::kFloat32}) {
      Transformer m = model_for(c, dtype);
      m->eval();
      torch::manual_seed(5);
      const auto x = (torch::randn({1, kLength, m->config().d_model}) * 0.5).to(dtype);
      JacobianSpec exact{JacobianMethod::kExact, 0};
      exact.order = BackwardOrder::kByChunk;
      JacobianSpec probes{JacobianMethod::kHutchinson, 700};
      probes.probes = 4;
      // (dense reference, blockwise variants)
      std::vector<std::pair<JacobianSpec, std::vector<JacobianSpec>>> plan{{exact, {exact}}};
      if (dtype == torch::kFloat64) {
        JacobianSpec by_block = exact, by_block_checkpointed = exact, probes_checkpointed = probes;
        by_block.order = by_block_checkpointed.order = BackwardOrder::kByBlock;
        by_block_checkpointed.checkpoint = probes_checkpointed.checkpoint = true;
        plan[0].second.push_back(by_block);
        plan[0].second.push_back(by_block_checkpointed);
        JacobianSpec probes_one_per_pass = probes_checkpointed;  // chunk after chunk
        probes_one_per_pass.max_chunk = 1;
        plan.push_back({probes, {probes, probes_checkpointed, probes_one_per_pass}});
      }
      for (const auto& [reference, variants] : plan) {
        m->set_attention(AttentionPath::kDense);
        ForwardCache dense_cache;
        const auto want = jacobian_profile(m, x, reference, &dense_cache);
        for (const JacobianSpec& spec : variants) {
          m->set_attention(AttentionPath::kBlockwise);
          ForwardCache cache;
          const auto got = jacobian_profile(m, x, spec, &cache);
          const std::string name = name_of(c, dtype) + " " + to_string(spec.method) +
                                   (spec.order == BackwardOrder::kByBlock ? " by block" : "") +
                                   (spec.checkpoint ? " checkpointed" : "") +
                                   (spec.max_chunk == 1 ? " one probe per pass" : "");
          EXPECT_LT(relative_error(got, want), tolerance(dtype)) << name;
          EXPECT_FALSE(cache.block(0).attn.pattern.defined()) << name << ": no [L, L] pattern";
          EXPECT_EQ(cache.blocks[0].attn.q.defined(), !spec.checkpoint) << name;
          if (&spec == &variants.front() && &reference == &plan.front().first) {
            // the entropy of the softmax rows, from the pattern and recomputed from tiles
            EXPECT_NEAR(attention_entropy_ratio(cache), attention_entropy_ratio(dense_cache),
                        tolerance(dtype))
                << name;
          }
        }
      }
    }
  }
}

TEST(BlockwiseAttention, RefusesAttentionDropoutInOneLine) {
  ModelConfig cfg = tiny_config(Family::kGpt2, PosEncoding::kLearned);
  cfg.dropout = 0.1;
  Transformer m(cfg);
  m->train();
  m->set_attention(AttentionPath::kBlockwise);
  try {
    m->forward(torch::zeros({1, 8}, torch::kInt64));
    FAIL() << "attention dropout on the blockwise path was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--attention dense"), std::string::npos) << e.what();
  }
  m->eval();  // no dropout in eval mode: accepted
  EXPECT_NO_THROW(m->forward(torch::zeros({1, 8}, torch::kInt64)));
}

}  // namespace
}  // namespace posbias
