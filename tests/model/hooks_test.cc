// run_with_cache against TransformerLens's hook names and shapes, and the hooks against each
// other and the model's own pieces: every name and shape for each family and positional
// encoding, hook_q → the model's rotary → hook_rot_q, scores and patterns from q and k,
// z = pattern·v with GQA grouping, the residual-stream sums, the MLP hooks, and the final
// norm against forward_embeddings. Then init_weights: its own generator, deterministic for a
// seed, the same stream torch::manual_seed(seed) gave the global generator, which it no
// longer touches.
#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "posbias/model/transformer.h"

namespace posbias {
namespace {

using Shape = std::vector<std::int64_t>;

constexpr std::int64_t kBatch = 2, kLength = 7;

struct Case {
  Family family;
  PosEncoding pos;
};

std::string name_of(const Case& c) { return to_string(c.family) + "/" + to_string(c.pos); }

const std::vector<Case> kCases = {
    {Family::kGpt2, PosEncoding::kLearned}, {Family::kGpt2, PosEncoding::kAlibi},
    {Family::kQwen2, PosEncoding::kRope},   {Family::kQwen2, PosEncoding::kNone},
    {Family::kQwen2, PosEncoding::kAlibi},  {Family::kGptj, PosEncoding::kRope},
    {Family::kGptj, PosEncoding::kLearned}, {Family::kLlama, PosEncoding::kRope},
};

// d_model 32, 2 layers, 4 heads of 8 (qwen2, llama: 2 kv heads), GPT-J rotating 4 of the 8 dims.
ModelConfig tiny(const Case& c) {
  ModelConfig cfg = family_default(c.family);
  cfg.vocab = 50;
  cfg.d_model = 32;
  cfg.layers = 2;
  cfg.heads = 4;
  cfg.kv_heads = c.family == Family::kQwen2 || c.family == Family::kLlama ? 2 : 4;
  cfg.mlp = 48;
  cfg.max_positions = 16;
  cfg.rotary_dim = c.family == Family::kGptj ? 4 : 0;
  cfg.pos = c.pos;
  cfg.dropout = 0.0;
  cfg.init_std = 0.3;  // attention far from uniform, activations of order 1
  return cfg;
}

// Norm weights and biases moved away from (1, 0), so that "before the weight" is testable.
Transformer make_model(const Case& c, torch::Dtype dtype) {
  Transformer m(tiny(c));
  m->init_weights(17);
  {
    torch::NoGradGuard g;
    at::Generator gen = at::detail::createCPUGenerator(5);
    for (auto& p : m->named_parameters()) {
      const std::string& n = p.key();
      if (n.find("ln") != std::string::npos || n.find("bias") != std::string::npos)
        p.value().add_(torch::empty_like(p.value()).normal_(0.0, 0.2, gen));
    }
  }
  m->to(dtype);
  m->eval();
  return m;
}

torch::Tensor input(const ModelConfig& cfg, torch::Dtype dtype) {
  at::Generator gen = at::detail::createCPUGenerator(3);
  return torch::empty({kBatch, kLength, cfg.d_model}).normal_(0.0, 1.0, gen).to(dtype);
}

// Largest absolute difference, relative to the larger of 1 and want's largest entry.
double diff(const torch::Tensor& got, const torch::Tensor& want) {
  const auto g = got.to(torch::kFloat64), w = want.to(torch::kFloat64);
  return ((g - w).abs().max() / w.abs().max().clamp_min(1.0)).item<double>();
}

Shape shape_of(const torch::Tensor& t) { return t.sizes().vec(); }

// TransformerLens's names and shapes for a config (see transformer.h).
std::map<std::string, Shape> expected_hooks(const ModelConfig& cfg) {
  const std::int64_t b = kBatch, l = kLength, d = cfg.d_model, h = cfg.heads, k = cfg.kv_heads,
                     e = cfg.head_dim(), m = cfg.mlp;
  std::map<std::string, Shape> want{{"hook_embed", {b, l, d}},
                                    {"ln_final.hook_scale", {b, l, 1}},
                                    {"ln_final.hook_normalized", {b, l, d}}};
  if (cfg.pos == PosEncoding::kLearned) want["hook_pos_embed"] = {b, l, d};
  for (std::int64_t i = 0; i < cfg.layers; ++i) {
    const std::string p = "blocks." + std::to_string(i) + ".";
    for (const char* n : {"hook_resid_pre", "hook_attn_out", "hook_mlp_out", "hook_resid_post",
                          "ln1.hook_normalized", "ln2.hook_normalized"})
      want[p + n] = {b, l, d};
    want[p + "ln1.hook_scale"] = want[p + "ln2.hook_scale"] = {b, l, 1};
    if (!cfg.parallel_block()) want[p + "hook_resid_mid"] = {b, l, d};
    want[p + "attn.hook_q"] = {b, l, h, e};
    want[p + "attn.hook_k"] = want[p + "attn.hook_v"] = {b, l, k, e};
    if (cfg.pos == PosEncoding::kRope) {
      want[p + "attn.hook_rot_q"] = {b, l, h, e};
      want[p + "attn.hook_rot_k"] = {b, l, k, e};
    }
    want[p + "attn.hook_z"] = {b, l, h, e};
    want[p + "attn.hook_attn_scores"] = want[p + "attn.hook_pattern"] = {b, h, l, l};
    want[p + "mlp.hook_pre"] = want[p + "mlp.hook_post"] = {b, l, m};
    if (cfg.gated_mlp()) want[p + "mlp.hook_pre_linear"] = {b, l, m};
  }
  return want;
}

// [B, L, K, E] → [B, L, H, E]: kv head j serves query heads j·g .. j·g + g - 1.
torch::Tensor expand_kv(const torch::Tensor& t, std::int64_t heads) {
  return t.repeat_interleave(heads / t.size(2), /*dim=*/2);
}

// A norm's weight and bias applied to its normalized input.
torch::Tensor affine(const Norm& n, const torch::Tensor& normalized) {
  auto y = normalized * n->weight;
  return n->bias.defined() ? y + n->bias : y;
}

TEST(Hooks, NamesAndShapesAreTransformerLens) {
  for (const Case& c : kCases) {
    for (auto dtype : {torch::kFloat32, torch::kFloat64}) {
      Transformer m = make_model(c, dtype);
      const auto cache = m->run_with_cache(input(m->config(), dtype));
      const auto want = expected_hooks(m->config());
      std::set<std::string> got_names, want_names;
      for (const auto& [name, t] : cache.tensors) got_names.insert(name);
      for (const auto& [name, s] : want) want_names.insert(name);
      EXPECT_EQ(got_names, want_names) << name_of(c);
      for (const auto& [name, s] : want) {
        if (!cache.contains(name)) continue;
        EXPECT_EQ(shape_of(cache[name]), s) << name_of(c) << " " << name;
        EXPECT_EQ(cache[name].scalar_type(), dtype) << name_of(c) << " " << name;
        EXPECT_FALSE(cache[name].requires_grad()) << name_of(c) << " " << name;
      }
    }
  }
}

TEST(Hooks, NamesFilterKeepsOnlyWhatItAccepts) {
  const Case c{Family::kQwen2, PosEncoding::kRope};
  Transformer m = make_model(c, torch::kFloat32);
  const auto x = input(m->config(), torch::kFloat32);
  const auto all = m->run_with_cache(x);
  const auto some = m->run_with_cache(x, [](const std::string& n) {
    return n == "blocks.1.attn.hook_q" || n == "blocks.0.attn.hook_rot_k" || n == "nonexistent";
  });
  ASSERT_EQ(some.tensors.size(), 2u);
  EXPECT_TRUE(torch::equal(some["blocks.1.attn.hook_q"], all["blocks.1.attn.hook_q"]));
  EXPECT_TRUE(torch::equal(some["blocks.0.attn.hook_rot_k"], all["blocks.0.attn.hook_rot_k"]));
  EXPECT_THROW(some["blocks.0.attn.hook_q"], std::out_of_range);
}

// q, k, v from ln1's output through the fused qkv weight (rows [q heads | k heads | v heads]),
// rotary by the model's own apply_rotary, scores, pattern, z and the output projection.
TEST(Hooks, AttentionHooksAgreeWithTheLayer) {
  for (const Case& c : kCases) {
    for (auto dtype : {torch::kFloat32, torch::kFloat64}) {
      const double tol = dtype == torch::kFloat64 ? 1e-10 : 1e-5;
      Transformer m = make_model(c, dtype);
      const ModelConfig& cfg = m->config();
      const auto cache = m->run_with_cache(input(cfg, dtype));
      const auto ctx = make_position_context(cfg, kLength, dtype);
      const std::int64_t h = cfg.heads, k = cfg.kv_heads, e = cfg.head_dim();
      const auto causal = torch::ones({kLength, kLength}, torch::kBool).tril();
      for (std::int64_t l = 0; l < cfg.layers; ++l) {
        const std::string p = "blocks." + std::to_string(l) + ".", tag = name_of(c) + " " + p;
        Block block = m->layers[static_cast<std::size_t>(l)];
        const auto& attn = block->attn;
        // Projections of ln1's output, head by head.
        const auto n = affine(block->ln1, cache[p + "ln1.hook_normalized"]);
        const auto qkv = torch::nn::functional::linear(n, attn->qkv->weight, attn->qkv->bias);
        const auto q = qkv.narrow(-1, 0, h * e).reshape({kBatch, kLength, h, e});
        const auto kk = qkv.narrow(-1, h * e, k * e).reshape({kBatch, kLength, k, e});
        const auto v = qkv.narrow(-1, (h + k) * e, k * e).reshape({kBatch, kLength, k, e});
        EXPECT_LT(diff(cache[p + "attn.hook_q"], q), tol) << tag << "hook_q";
        EXPECT_LT(diff(cache[p + "attn.hook_k"], kk), tol) << tag << "hook_k";
        EXPECT_LT(diff(cache[p + "attn.hook_v"], v), tol) << tag << "hook_v";
        // Rotary: apply_rotary works on [..., L, E], so heads go first and come back.
        auto rotate = [&](const torch::Tensor& t) {
          return apply_rotary(t.transpose(1, 2), ctx).transpose(1, 2);
        };
        torch::Tensor rq = cache[p + "attn.hook_q"], rk = cache[p + "attn.hook_k"];
        if (cfg.pos == PosEncoding::kRope) {
          EXPECT_LT(diff(cache[p + "attn.hook_rot_q"], rotate(rq)), tol) << tag << "rot_q";
          EXPECT_LT(diff(cache[p + "attn.hook_rot_k"], rotate(rk)), tol) << tag << "rot_k";
          // Partial rotary (GPT-J): the dims past rotary_dim are untouched.
          const std::int64_t r = ctx.rotary;
          if (r < e) {
            EXPECT_TRUE(torch::equal(cache[p + "attn.hook_rot_q"].narrow(-1, r, e - r),
                                     rq.narrow(-1, r, e - r)))
                << tag;
          }
          EXPECT_GT(diff(cache[p + "attn.hook_rot_q"], rq), 1e-3) << tag << "rotary is a no-op";
          rq = cache[p + "attn.hook_rot_q"], rk = cache[p + "attn.hook_rot_k"];
        }
        // Scores (bias: ALiBi and the causal -inf) and the pattern.
        const auto scores = torch::einsum("bihe,bjhe->bhij", {rq, expand_kv(rk, h)}) /
                                std::sqrt(static_cast<double>(e)) +
                            ctx.bias;
        const auto got_scores = cache[p + "attn.hook_attn_scores"];
        EXPECT_TRUE(
            torch::equal(torch::isinf(got_scores), causal.logical_not().expand_as(got_scores)))
            << tag << "scores mask";
        EXPECT_LT(diff(got_scores.masked_fill(causal.logical_not(), 0),
                       scores.masked_fill(causal.logical_not(), 0)),
                  tol)
            << tag << "scores";
        const auto pattern = cache[p + "attn.hook_pattern"];
        EXPECT_LT(diff(pattern, torch::softmax(scores, -1)), tol) << tag << "pattern";
        EXPECT_LT(diff(pattern.sum(-1), torch::ones({kBatch, h, kLength}, dtype)), tol)
            << tag << "rows sum to 1";
        EXPECT_EQ(pattern.masked_select(causal.logical_not()).abs().max().item<double>(), 0.0)
            << tag << "causal";
        // Far from uniform (1/7) at the last query, so the checks above can tell heads apart.
        EXPECT_GT(pattern.select(2, kLength - 1).max().item<double>(), 0.3) << tag << "uniform";
        // z = pattern·v, query head h reading kv head h / (H/K).
        const auto z = torch::einsum("bhij,bjhe->bihe", {pattern, expand_kv(v, h)});
        EXPECT_LT(diff(cache[p + "attn.hook_z"], z), tol) << tag << "z";
        const auto out = torch::nn::functional::linear(z.reshape({kBatch, kLength, h * e}),
                                                       attn->out->weight, attn->out->bias);
        EXPECT_LT(diff(cache[p + "hook_attn_out"], out), tol) << tag << "attn_out";
      }
    }
  }
}

// GQA: hook_k and hook_v hold the K kv heads themselves, not H expanded copies.
TEST(Hooks, GroupedQueryKeysStayAtKvHeads) {
  Transformer m = make_model({Family::kQwen2, PosEncoding::kRope}, torch::kFloat32);
  const auto cache = m->run_with_cache(input(m->config(), torch::kFloat32));
  ASSERT_EQ(m->config().kv_heads, 2);
  for (const char* n : {"attn.hook_k", "attn.hook_v", "attn.hook_rot_k"}) {
    const auto t = cache[std::string("blocks.0.") + n];
    ASSERT_EQ(t.size(2), 2) << n;
    EXPECT_GT((t.select(2, 0) - t.select(2, 1)).abs().max().item<double>(), 1e-3) << n;
  }
}

// The residual stream, the norms, the MLP and the final hidden.
TEST(Hooks, ResidualStreamAndMlpAddUp) {
  for (const Case& c : kCases) {
    for (auto dtype : {torch::kFloat32, torch::kFloat64}) {
      const double tol = dtype == torch::kFloat64 ? 1e-10 : 1e-5;
      Transformer m = make_model(c, dtype);
      const ModelConfig& cfg = m->config();
      const auto x = input(cfg, dtype);
      const auto cache = m->run_with_cache(x);
      const std::string tag0 = name_of(c);
      EXPECT_TRUE(torch::equal(cache["hook_embed"], x)) << tag0;
      torch::Tensor resid = x;
      if (cfg.pos == PosEncoding::kLearned) {
        const auto pe = cache["hook_pos_embed"];
        EXPECT_TRUE(torch::equal(pe[1], m->wpe.slice(0, 0, kLength))) << tag0;
        EXPECT_TRUE(torch::equal(pe[0], pe[1])) << tag0;
        resid = x + pe;
      }
      EXPECT_LT(diff(cache["blocks.0.hook_resid_pre"], resid), tol) << tag0;
      for (std::int64_t l = 0; l < cfg.layers; ++l) {
        const std::string p = "blocks." + std::to_string(l) + ".", tag = tag0 + " " + p;
        Block block = m->layers[static_cast<std::size_t>(l)];
        const auto pre = cache[p + "hook_resid_pre"];
        if (l > 0) {
          EXPECT_TRUE(
              torch::equal(pre, cache["blocks." + std::to_string(l - 1) + ".hook_resid_post"]))
              << tag;
        }
        // ln1: normalized·scale is the (centered) input; weight and bias give ln1's output.
        const auto centered = cfg.rms_norm() ? pre : pre - pre.mean(-1, true);
        EXPECT_LT(diff(cache[p + "ln1.hook_normalized"] * cache[p + "ln1.hook_scale"], centered),
                  tol)
            << tag << "ln1";
        EXPECT_LT(diff(affine(block->ln1, cache[p + "ln1.hook_normalized"]), block->ln1(pre)), tol)
            << tag << "ln1 affine";
        const auto attn_out = cache[p + "hook_attn_out"], mlp_out = cache[p + "hook_mlp_out"];
        torch::Tensor mlp_in;
        if (block->parallel) {
          EXPECT_FALSE(cache.contains(p + "hook_resid_mid")) << tag;
          EXPECT_LT(diff(cache[p + "hook_resid_post"], pre + attn_out + mlp_out), tol) << tag;
          EXPECT_TRUE(
              torch::equal(cache[p + "ln2.hook_normalized"], cache[p + "ln1.hook_normalized"]))
              << tag;
          mlp_in = block->ln1(pre);
        } else {
          const auto mid = cache[p + "hook_resid_mid"];
          EXPECT_LT(diff(mid, pre + attn_out), tol) << tag << "resid_mid";
          EXPECT_LT(diff(cache[p + "hook_resid_post"], mid + mlp_out), tol) << tag << "post";
          EXPECT_LT(diff(cache[p + "hook_resid_post"], pre + attn_out + mlp_out), tol) << tag;
          mlp_in = affine(block->ln2, cache[p + "ln2.hook_normalized"]);
          EXPECT_LT(diff(mlp_in, block->ln2(mid)), tol) << tag << "ln2";
        }
        // MLP: pre (and pre_linear) from its input, post = activation, out = proj(post).
        const auto& mlp = block->mlp;
        const auto fc = torch::nn::functional::linear(mlp_in, mlp->fc->weight, mlp->fc->bias);
        torch::Tensor post;
        if (cfg.gated_mlp()) {
          const auto gate = fc.narrow(-1, 0, cfg.mlp), up = fc.narrow(-1, cfg.mlp, cfg.mlp);
          EXPECT_LT(diff(cache[p + "mlp.hook_pre"], gate), tol) << tag << "gate";
          EXPECT_LT(diff(cache[p + "mlp.hook_pre_linear"], up), tol) << tag << "up";
          post = torch::silu(gate) * up;
        } else {
          EXPECT_LT(diff(cache[p + "mlp.hook_pre"], fc), tol) << tag << "pre";
          post = torch::gelu(fc, "tanh");
        }
        EXPECT_LT(diff(cache[p + "mlp.hook_post"], post), 10 * tol) << tag << "post";
        const auto proj = torch::nn::functional::linear(cache[p + "mlp.hook_post"],
                                                        mlp->proj->weight, mlp->proj->bias);
        EXPECT_LT(diff(mlp_out, proj), tol) << tag << "mlp_out";
      }
      // The final norm: its input is the last resid_post, its output forward_embeddings'.
      torch::Tensor hidden;
      {
        torch::NoGradGuard g;
        hidden = m->forward_embeddings(x);
      }
      const auto last = cache["blocks." + std::to_string(cfg.layers - 1) + ".hook_resid_post"];
      EXPECT_LT(diff(affine(m->ln_f, cache["ln_final.hook_normalized"]), hidden), tol) << tag0;
      EXPECT_LT(diff(m->ln_f(last), hidden), tol) << tag0;
      const auto centered = cfg.rms_norm() ? last : last - last.mean(-1, true);
      EXPECT_LT(diff(cache["ln_final.hook_normalized"] * cache["ln_final.hook_scale"], centered),
                tol)
          << tag0;
      // hook_normalized is before ln_f's weight: with the weight perturbed, not the hidden.
      EXPECT_GT(diff(cache["ln_final.hook_normalized"], hidden), 1e-3) << tag0;
    }
  }
}

// ---------------------------------------------------------------- init_weights and RNG
std::vector<torch::Tensor> parameters_of(Transformer& m) {
  std::vector<torch::Tensor> out;
  for (const auto& p : m->named_parameters()) out.push_back(p.value().clone());
  return out;
}

bool same(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!torch::equal(a[i], b[i])) return false;
  return true;
}

TEST(Init, LeavesTheGlobalGeneratorAlone) {
  const ModelConfig cfg = tiny({Family::kGpt2, PosEncoding::kLearned});
  torch::manual_seed(123);
  const auto undisturbed = torch::rand({16});
  torch::manual_seed(123);
  {
    Transformer m(cfg);  // the constructor initializes with seed 0
    m->init_weights(7);
    Transformer n(tiny({Family::kQwen2, PosEncoding::kRope}), /*token_embeddings=*/false);
  }
  EXPECT_TRUE(torch::equal(torch::rand({16}), undisturbed));
}

TEST(Init, DeterministicForASeedAndDifferentAcrossSeeds) {
  for (const Case& c : kCases) {
    const ModelConfig cfg = tiny(c);
    Transformer a(cfg), b(cfg);
    EXPECT_TRUE(same(parameters_of(a), parameters_of(b))) << name_of(c) << " constructor";
    a->init_weights(5);
    torch::manual_seed(99);  // the global generator plays no part
    b->init_weights(5);
    EXPECT_TRUE(same(parameters_of(a), parameters_of(b))) << name_of(c);
    b->init_weights(6);
    const auto pa = a->named_parameters(), pb = b->named_parameters();
    EXPECT_FALSE(torch::equal(pa["blocks.0.attn.qkv.weight"], pb["blocks.0.attn.qkv.weight"]))
        << name_of(c);
    a->init_weights(6);
    EXPECT_TRUE(same(parameters_of(a), parameters_of(b))) << name_of(c);
  }
}

// The weights are the ones the global generator gave after torch::manual_seed(seed), drawn in
// named_parameters order (what init_weights did before it had a generator of its own).
TEST(Init, SameStreamAsManualSeed) {
  for (const Case& c :
       {Case{Family::kGpt2, PosEncoding::kLearned}, Case{Family::kQwen2, PosEncoding::kRope}}) {
    ModelConfig cfg = tiny(c);
    cfg.init_std = 0.02;
    Transformer m(cfg);
    m->init_weights(42);
    torch::manual_seed(42);
    const double residual = cfg.scaled_residual_init()
                                ? cfg.init_std / std::sqrt(2.0 * static_cast<double>(cfg.layers))
                                : cfg.init_std;
    int drawn = 0;
    for (const auto& p : m->named_parameters()) {
      const std::string& n = p.key();
      if ((n.find("ln") != std::string::npos && n.find("lm_head") == std::string::npos) ||
          (n.size() >= 4 && n.substr(n.size() - 4) == "bias"))
        continue;
      const bool res = n.find("attn.out.weight") != std::string::npos ||
                       n.find("mlp.proj.weight") != std::string::npos;
      const auto want = torch::empty_like(p.value()).normal_(0.0, res ? residual : cfg.init_std);
      EXPECT_TRUE(torch::equal(p.value(), want)) << name_of(c) << " " << n;
      ++drawn;
    }
    EXPECT_GE(drawn, 5) << name_of(c);
  }
}

}  // namespace
}  // namespace posbias
