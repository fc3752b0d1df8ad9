// The flat-buffer AdamW, schedule, clipping and dropout against independent references:
// libtorch's own torch::optim::AdamW on an identical copy of the model, closed-form learning
// rates, and mask statistics; the position table's own learning rate (pos_lr_scale) against
// the run without it.
#include "posbias/train/optimizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "learned_table_runs.h"
#include "posbias/train/hop_eval.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

TrainConfig tiny_config() {
  TrainConfig c;
  c.task = Task::kLetter;
  c.layers = 2;
  c.d_model = 32;
  c.mlp = 64;
  c.rotary_dim = 8;
  c.steps = 100;
  c.warmup = 10;
  c.dropout = 0;
  c.finalize();
  return c;
}

TEST(Optimizer, FlatAdamWMatchesLibtorchAdamW) {
  const TrainConfig c = tiny_config();
  Transformer ours(c.model_config()), theirs(c.model_config());
  ours->init_weights(3);
  theirs->init_weights(3);
  FlatParams flat(*ours);
  AdamW adam(flat, c);
  // Reference: libtorch AdamW with the same decay split (matrices decay, vectors do not).
  std::vector<torch::Tensor> decay, plain;
  for (auto& p : theirs->parameters()) (p.dim() >= 2 ? decay : plain).push_back(p);
  torch::optim::AdamW ref(
      {torch::optim::OptimizerParamGroup(decay), torch::optim::OptimizerParamGroup(plain)},
      torch::optim::AdamWOptions(1.0).betas({c.beta1, c.beta2}).eps(c.adam_eps));
  static_cast<torch::optim::AdamWOptions&>(ref.param_groups()[0].options())
      .weight_decay(c.weight_decay);
  static_cast<torch::optim::AdamWOptions&>(ref.param_groups()[1].options()).weight_decay(0.0);

  const auto batch = sample_batch(c.task, c.hops, c.length, 16, 0, 1, 0);
  const HopBatch b = encode_examples(batch, 0, batch.size());
  for (std::int64_t step = 1; step <= 5; ++step) {
    const double lr = learning_rate(c, step);
    flat.zero_grad();
    torch::cross_entropy_loss(ours->last_logits(b.ids), b.answers).backward();
    adam.step(lr);
    ref.zero_grad();
    torch::cross_entropy_loss(theirs->last_logits(b.ids), b.answers).backward();
    for (auto& group : ref.param_groups()) {
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
    }
    ref.step();
  }
  double worst = 0;
  const auto a = ours->named_parameters(), r = theirs->named_parameters();
  for (const auto& item : a) {
    worst = std::max(worst, (item.value() - r[item.key()]).abs().max().item<double>());
  }
  EXPECT_LT(worst, 1e-6) << "worst parameter difference after 5 AdamW steps";
  // The parameters really are views into the flat buffer.
  for (const ParamSlot& slot : flat.slots()) {
    torch::NoGradGuard g;
    flat.params.narrow(0, slot.offset, 1).fill_(42.0f);
    EXPECT_EQ(a[slot.name].flatten()[0].item<float>(), 42.0f) << slot.name;
  }
}

TEST(Optimizer, ScheduleIsLinearWarmupThenLinearDecay) {
  TrainConfig c = tiny_config();  // lr 1e-3, warmup 10, steps 100
  EXPECT_DOUBLE_EQ(learning_rate(c, 1), 1e-4);
  EXPECT_DOUBLE_EQ(learning_rate(c, 10), 1e-3);
  EXPECT_NEAR(learning_rate(c, 11), 1e-3, 1e-15);
  EXPECT_NEAR(learning_rate(c, 55), 1e-3 * 46.0 / 90.0, 1e-15);
  EXPECT_NEAR(learning_rate(c, 100), 1e-3 / 90.0, 1e-15);
}

TEST(Optimizer, ClippingScalesToTheMaxNorm) {
  const TrainConfig c = tiny_config();
  Transformer m(c.model_config());
  FlatParams flat(*m);
  flat.grads.fill_(1.0f);
  const double before = clip_gradients(flat, 2.0);
  EXPECT_NEAR(before, std::sqrt(static_cast<double>(flat.size())), 1e-3);
  EXPECT_NEAR(flat.grads.norm().item<double>(), 2.0, 1e-4);
  clip_gradients(flat, 0.0);  // off
  EXPECT_NEAR(flat.grads.norm().item<double>(), 2.0, 1e-4);
}

TEST(Dropout, RateScaleAndDeterminism) {
  PositionContext ctx;
  ctx.dropout = std::make_shared<DropoutSource>(DropoutSource{Rng(5), 0.1});
  const torch::Tensor x = torch::ones({1000, 100});
  const torch::Tensor y = apply_dropout(x, ctx);
  const double dropped = (y == 0).to(torch::kFloat64).mean().item<double>();
  EXPECT_NEAR(dropped, 0.1, 0.005);  // 1e5 draws: 5 standard deviations ≈ 0.0047
  EXPECT_NEAR(y.max().item<double>(), 1.0 / 0.9, 1e-6);
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 0.01);
  PositionContext again;
  again.dropout = std::make_shared<DropoutSource>(DropoutSource{Rng(5), 0.1});
  EXPECT_TRUE(torch::equal(apply_dropout(x, again), y));
  EXPECT_TRUE(torch::equal(apply_dropout(x, PositionContext{}), x));
}

TEST(Trainer, StepsAreReproducibleAndEvalModeHasNoDropout) {
  TrainConfig c = tiny_config();
  c.dropout = 0.1;
  // The global generator plays no part: each trainer is built after a different global seed
  // and draws from it (the trainer no longer seeds it itself).
  torch::manual_seed(1);
  Trainer a(c);
  torch::manual_seed(2);
  (void)torch::rand({7});
  Trainer b(c);
  for (int s = 1; s <= 3; ++s) {
    torch::manual_seed(100 + s);
    const double la = a.step(s);
    (void)torch::randn({3});
    EXPECT_EQ(la, b.step(s));
  }
  EXPECT_TRUE(torch::equal(a.flat->params, b.flat->params));
  const auto batch = sample_batch(c.task, c.hops, c.length, 8, 0, 1, 0);
  const HopBatch hb = encode_examples(batch, 0, batch.size());
  a.model->eval();
  torch::NoGradGuard g;
  EXPECT_TRUE(torch::equal(a.model->last_logits(hb.ids), a.model->last_logits(hb.ids)));
}

// A tiny kv run with a learned position table (qwen2, one layer), `scale` its pos_lr_scale.
TrainConfig tiny_kv_config(std::optional<double> scale) {
  TrainConfig c = learned_table_runs::kv_config();
  c.pos_lr_scale = scale;
  c.finalize();
  return c;
}

using learned_table_runs::table_offset;

TEST(Optimizer, PosLrScaleReachesThePositionTableAndNothingElse) {
  const Trainer plain(tiny_kv_config(std::nullopt));
  EXPECT_FALSE(plain.adam->lr_scale.defined()) << "no pos_lr_scale: one learning rate";
  const Trainer t(tiny_kv_config(0.25));
  ASSERT_TRUE(t.adam->lr_scale.defined());
  const std::int64_t at = table_offset(t), rows = t.model->wpe.numel();
  const torch::Tensor s = t.adam->lr_scale;
  EXPECT_TRUE(torch::all(s.narrow(0, at, rows) == 0.25f).item<bool>()) << "the table's slot";
  EXPECT_EQ((s != 1.0f).sum().item<std::int64_t>(), rows) << "every other parameter keeps lr";
  // What the multiple does: from the same init and gradient, AdamW's first update of the table
  // (and its decay) is the scale times the unscaled one, and every other update the same.
  Trainer one(tiny_kv_config(1.0)), quarter(tiny_kv_config(0.25)), frozen(tiny_kv_config(0.0));
  const torch::Tensor init = one.flat->params.clone();
  for (Trainer* r : {&one, &quarter, &frozen}) r->step(1);
  const torch::Tensor moved_one = one.flat->params - init,
                      moved_quarter = quarter.flat->params - init;
  const auto table = [&](const torch::Tensor& x) { return x.narrow(0, at, rows); };
  EXPECT_TRUE(torch::allclose(table(moved_quarter), 0.25 * table(moved_one), 1e-4, 1e-9));
  EXPECT_GT(table(moved_one).abs().max().item<double>(), 0.0);
  const auto rest = [&](const torch::Tensor& x) {
    return torch::cat({x.narrow(0, 0, at), x.narrow(0, at + rows, x.numel() - at - rows)});
  };
  EXPECT_TRUE(torch::equal(rest(quarter.flat->params), rest(one.flat->params)));
  // Scale 0: the table stays at its init bit for bit over several steps; the rest trains.
  for (int step = 2; step <= 4; ++step) frozen.step(step);
  EXPECT_TRUE(torch::equal(table(frozen.flat->params), table(init)));
  EXPECT_FALSE(torch::equal(rest(frozen.flat->params), rest(init)));
}

TEST(Trainer, PosLrScaleOneIsTheRunWithoutIt) {
  const TrainConfig without = tiny_kv_config(std::nullopt), with = tiny_kv_config(1.0);
  Trainer a(without), b(with);
  for (int s = 1; s <= 4; ++s) EXPECT_EQ(a.step(s), b.step(s)) << "step " << s;
  EXPECT_TRUE(torch::equal(a.flat->params, b.flat->params));
  EXPECT_TRUE(torch::equal(a.adam->exp_avg_sq, b.adam->exp_avg_sq));
  // Written to train.json only when set, and read back.
  EXPECT_FALSE(train_config_to_json(without).contains("pos_lr_scale"));
  const nlohmann::json j = train_config_to_json(with);
  ASSERT_TRUE(j.contains("pos_lr_scale"));
  EXPECT_EQ(train_config_from_json(j).pos_lr_scale, 1.0);
}

TEST(Optimizer, PosLrScaleRefusesANegativeScaleAndAModelWithoutATable) {
  using learned_table_runs::refusal;
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.pos = PosEncoding::kLearned;
  c.pos_lr_scale = -0.5;
  EXPECT_NE(refusal(c).find("pos_lr_scale must be a number >= 0, got -0.5"), std::string::npos);
  c.pos_lr_scale = 0.0;
  EXPECT_EQ(refusal(c), "");
  c.pos = PosEncoding::kRope;
  EXPECT_NE(refusal(c).find("pos rope has no table"), std::string::npos) << refusal(c);
}

}  // namespace
}  // namespace posbias
