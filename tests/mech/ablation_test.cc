// Mean-ablation and activation patching (mech/ablation.h) on hand-built models whose answer
// flows through one known layer: taking that layer away must drop accuracy to chance, taking
// any other away must not; patching that layer from a corrupted input must move the answer.
#include "posbias/mech/ablation.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "experiments/mech/ablation_command.h"
#include "posbias/tasks/vocab.h"

namespace posbias {
namespace {

// Three qwen2 layers, one head as wide as the model, MLPs zero. The residual stream has five
// blocks of dimensions:
//   query-key Kq [0, 32): what a query looks for      key Kk [32, 64): what a key offers
//   token T [64, 64 + V): the token's identity         answer A: the identity copied to it
//   junk J: what layers 0 and 2 write, read by nothing
// Layer 1 is the answer's path: query Kq·c, key Kk·c (so the query attends to the one key
// that offers what it looks for), value T, output into A; the LM head reads A. Layers 0 and 2
// attend uniformly (q = 0) and copy Kk into J: they change the stream (and so its norms) at
// every position but carry nothing the answer needs.
struct HandBuilt {
  Transformer model{nullptr};
  std::int64_t vocab = 0, d = 0;
  std::int64_t kq() const { return 0; }
  std::int64_t kk() const { return 32; }
  std::int64_t t() const { return 64; }
  std::int64_t a() const { return 64 + vocab; }
  std::int64_t j() const { return 64 + 2 * vocab; }
};

constexpr int kAnswerLayer = 1;

HandBuilt hand_built(std::int64_t vocab, PosEncoding pos, double c) {
  HandBuilt h;
  h.vocab = vocab;
  h.d = 64 + 2 * vocab + 32;
  ModelConfig cfg = family_default(Family::kQwen2);
  cfg.vocab = vocab, cfg.d_model = h.d, cfg.layers = 3, cfg.heads = 1, cfg.kv_heads = 1;
  cfg.mlp = 4, cfg.pos = pos, cfg.max_positions = 64, cfg.tie_embeddings = false;
  cfg.norm_eps = 1e-6;
  h.model = Transformer(cfg);
  torch::NoGradGuard no_grad;
  for (auto& p : h.model->parameters()) p.zero_();
  const std::int64_t d = h.d;
  for (std::int64_t l = 0; l < 3; ++l) {
    Block& b = h.model->layers[static_cast<std::size_t>(l)];
    b->ln1->weight.fill_(1);
    b->ln2->weight.fill_(1);
    torch::Tensor w = b->attn->qkv->weight;    // [3D, D]: q rows, k rows, v rows
    torch::Tensor out = b->attn->out->weight;  // [D, D]
    if (l == kAnswerLayer) {
      for (std::int64_t i = 0; i < 32; ++i) {
        w[i][h.kq() + i] = c;
        w[d + i][h.kk() + i] = c;
      }
      for (std::int64_t v = 0; v < vocab; ++v) {
        w[2 * d + 32 + v][h.t() + v] = 1;
        out[h.a() + v][32 + v] = 1;
      }
    } else {
      for (std::int64_t i = 0; i < 32; ++i) {
        w[2 * d + i][h.kk() + i] = 1;
        out[h.j() + i][i] = 1;
      }
    }
  }
  h.model->ln_f->weight.fill_(1);
  for (std::int64_t v = 0; v < vocab; ++v) h.model->lm_head->weight[v][h.a() + v] = 1;
  h.model->eval();
  return h;
}

// Letter, 1 hop: the query "x:y" looks for left letter y; every token offers its left letter.
HandBuilt letter_model() {
  const Vocabulary& vocab = Vocabulary::of(Task::kLetter);
  HandBuilt h = hand_built(vocab.size(), PosEncoding::kNone, 9.0);
  torch::NoGradGuard no_grad;
  torch::Tensor e = h.model->wte->weight;
  for (std::int64_t id = 1; id < vocab.size(); ++id) {
    const std::string& tok = vocab.token(id);  // "l:r" or "l:digit"
    e[id][h.t() + id] = 1;
    e[id][h.kk() + (tok[0] - 'a')] = 1;
    if (tok[2] >= 'a' && tok[2] <= 'h') e[id][h.kq() + (tok[2] - 'a')] = 1;
  }
  return h;
}

// Number, 1 hop, 17 tokens: the query integer k looks for position 16 − k; every position p
// offers p (learned positions), so the query attends to the letter k back.
HandBuilt number_model() {
  const Vocabulary& vocab = Vocabulary::of(Task::kNumber);
  HandBuilt h = hand_built(vocab.size(), PosEncoding::kLearned, 10.0);
  torch::NoGradGuard no_grad;
  torch::Tensor e = h.model->wte->weight;
  for (std::int64_t id = 1; id < vocab.size(); ++id) {
    e[id][h.t() + id] = 1;
    const std::string& tok = vocab.token(id);
    if (std::isdigit(static_cast<unsigned char>(tok[0])) && std::stoi(tok) <= 16)
      e[id][h.kq() + (16 - std::stoi(tok))] = 1;
  }
  for (std::int64_t p = 0; p < 32; ++p) h.model->wpe[p][h.kk() + p] = 1;
  return h;
}

TEST(Ablation, TheAnswerLayerDropsToChanceAndTheOthersDoNot) {
  HandBuilt h = letter_model();
  AblationSpec spec;
  spec.task = Task::kLetter;
  spec.hops = {1};
  spec.lengths = {17, 32};
  spec.count = 80;
  const AblationResult r = mean_ablate_layers(h.model, spec);
  ASSERT_EQ(r.layers, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(r.joint.empty());  // every layer by default: one at a time only
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(r.baseline[k].hop(1), 1.0) << "length " << spec.lengths[k];
    EXPECT_LE(r.ablated[kAnswerLayer][k].hop(1), r.baseline[k].chance(1))
        << "length " << spec.lengths[k];
    EXPECT_EQ(r.ablated[0][k].hop(1), 1.0);
    EXPECT_EQ(r.ablated[2][k].hop(1), 1.0);
  }
  // The hooks are gone afterwards: the model answers as before.
  const AblationResult again = mean_ablate_layers(h.model, spec);
  EXPECT_EQ(again.baseline[0].hop(1), 1.0);
  const nlohmann::json j = to_json(ablation_record(r, spec));
  EXPECT_EQ(j["layers"][kAnswerLayer]["layer"], kAnswerLayer);
  EXPECT_NEAR(j["layers"][kAnswerLayer]["drop"]["17"]["1"].get<double>(),
              1.0 - r.ablated[kAnswerLayer][0].hop(1), 1e-12);
  EXPECT_EQ(j["baseline"]["32"]["1"], 1.0);
}

TEST(Ablation, TheSameOnAPositionalModel) {
  HandBuilt h = number_model();
  AblationSpec spec;
  spec.hops = {1};
  spec.lengths = {17};
  spec.count = 64;
  spec.layers = {0, kAnswerLayer, 2};
  spec.spans = true;
  const AblationResult r = mean_ablate_layers(h.model, spec);
  EXPECT_EQ(r.baseline[0].hop(1), 1.0);
  EXPECT_LE(r.ablated[1][0].hop(1), r.baseline[0].chance(1));
  EXPECT_EQ(r.ablated[0][0].hop(1), 1.0);
  EXPECT_EQ(r.ablated[2][0].hop(1), 1.0);
  // The layers were listed: all three ablated at once is one more row, at chance or below.
  ASSERT_EQ(r.joint.size(), 1u);
  EXPECT_LE(r.joint[0].hop(1), r.baseline[0].chance(1));
  // Spans L0–L0, L0–L1, L1–L2, L2–L2: those holding layer 1 fall to chance, the others keep 1.
  ASSERT_EQ(r.spans.size(), 4u);
  for (const AblatedSpan& span : r.spans) {
    const bool holds = span.first <= kAnswerLayer && kAnswerLayer <= span.last;
    if (holds) {
      EXPECT_LE(span.accuracy[0].hop(1), r.baseline[0].chance(1))
          << span.first << ".." << span.last;
    } else {
      EXPECT_EQ(span.accuracy[0].hop(1), 1.0) << span.first << ".." << span.last;
    }
  }
  EXPECT_EQ(to_json(ablation_record(r, spec))["spans"][1]["last"], 1);
}

TEST(Patching, TheAnswerLayerCarriesTheJumpAndTheOthersDoNot) {
  HandBuilt h = number_model();
  AblationSpec spec;
  spec.lengths = {17};
  spec.count = 64;
  const PatchingResult r = patch_layers(h.model, spec);
  EXPECT_EQ(r.clean_accuracy[0], 1.0);
  EXPECT_EQ(r.corrupted_accuracy[0], 1.0);  // the corrupted inputs are valid inputs
  EXPECT_EQ(r.moved[kAnswerLayer][0], 1.0);
  EXPECT_EQ(r.kept[kAnswerLayer][0], 0.0);
  for (int l : {0, 2}) {
    EXPECT_EQ(r.moved[static_cast<std::size_t>(l)][0], 0.0) << "layer " << l;
    EXPECT_EQ(r.kept[static_cast<std::size_t>(l)][0], 1.0) << "layer " << l;
  }
  const nlohmann::json j = to_json(patching_record(r));
  EXPECT_EQ(j["layers"][kAnswerLayer]["moved"]["17"], 1.0);
  EXPECT_EQ(j["pairs"], 64);
}

TEST(Ablation, BadInputIsRefusedInOneLine) {
  HandBuilt h = letter_model();
  AblationSpec spec;
  spec.task = Task::kLetter;
  spec.layers = {3};
  EXPECT_THROW(mean_ablate_layers(h.model, spec), std::invalid_argument);
  spec.layers = {-1};
  EXPECT_THROW(mean_ablate_layers(h.model, spec), std::invalid_argument);
  spec.layers = {};
  spec.lengths = {};
  EXPECT_THROW(mean_ablate_layers(h.model, spec), std::invalid_argument);
  spec.lengths = {9};  // too short for 4-hop Letter
  EXPECT_THROW(mean_ablate_layers(h.model, spec), std::invalid_argument);
  spec.lengths = {17};
  spec.count = 0;
  EXPECT_THROW(mean_ablate_layers(h.model, spec), std::invalid_argument);
  spec.count = 8;
  EXPECT_THROW(patch_layers(h.model, spec), std::invalid_argument);  // Letter: no pairs
  HandBuilt n = number_model();
  AblationSpec past;
  past.lengths = {65};  // past the 64 learned positions
  EXPECT_THROW(mean_ablate_layers(n.model, past), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
