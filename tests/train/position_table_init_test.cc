// train --pos-init-scale: the learned position table's init std as a multiple of init_std,
// against the table's own statistics and the run without the option.
#include "posbias/train/position_table_init.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "learned_table_runs.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// A kv run with a learned position table (qwen2, one layer), `scale` its pos_init_scale; a
// table of more than 64 rows × 64, so its std is measured on thousands of entries.
TrainConfig kv_config(std::optional<double> scale) {
  TrainConfig c = learned_table_runs::kv_config();
  c.d_model = 64;
  c.length = 64;
  c.pos_init_scale = scale;
  c.finalize();
  return c;
}

// Every parameter but the position table, flattened.
torch::Tensor all_but_table(const Trainer& t) {
  const std::int64_t at = learned_table_runs::table_offset(t);
  const std::int64_t rows = t.model->wpe.numel(), n = t.flat->params.numel();
  return torch::cat(
      {t.flat->params.narrow(0, 0, at), t.flat->params.narrow(0, at + rows, n - at - rows)});
}

TEST(PositionTableInit, TheTableIsDrawnAtTheAskedStdAndTheRestAsWithout) {
  const Trainer plain(kv_config(std::nullopt));
  const double init_std = plain.config.init_std;
  // The table has thousands of entries (its std within a few percent of the asked one).
  ASSERT_GT(plain.model->wpe.numel(), 4000);
  EXPECT_NEAR(plain.model->wpe.std().item<double>(), init_std, 0.05 * init_std) << "the default";
  for (const double scale : {0.1, 0.3, 2.0}) {
    const Trainer t(kv_config(scale));
    EXPECT_NEAR(t.model->wpe.std().item<double>(), scale * init_std, 0.05 * scale * init_std)
        << "scale " << scale;
    EXPECT_NEAR(t.model->wpe.mean().item<double>(), 0.0, 0.05 * scale * init_std);
    // The same draw, scaled: the table is the plain run's times the scale, and every other
    // weight is the plain run's bit for bit.
    EXPECT_TRUE(torch::allclose(t.model->wpe, scale * plain.model->wpe, 1e-6, 0.0));
    EXPECT_TRUE(torch::equal(all_but_table(t), all_but_table(plain)));
  }
  const Trainer zero(kv_config(0.0));
  EXPECT_TRUE(torch::equal(zero.model->wpe, torch::zeros_like(zero.model->wpe))) << "0: zeros";
  EXPECT_TRUE(torch::equal(all_but_table(zero), all_but_table(plain)));
}

TEST(PositionTableInit, UnsetAndOneAreTheRunWithoutItBitForBit) {
  const TrainConfig without = kv_config(std::nullopt), one = kv_config(1.0);
  Trainer a(without), b(one);
  EXPECT_TRUE(torch::equal(a.flat->params, b.flat->params)) << "step 0";
  for (int s = 1; s <= 4; ++s) EXPECT_EQ(a.step(s), b.step(s)) << "step " << s;
  EXPECT_TRUE(torch::equal(a.flat->params, b.flat->params));
  // Written to train.json only when set, and read back.
  EXPECT_FALSE(train_config_to_json(without).contains("pos_init_scale"));
  const nlohmann::json j = train_config_to_json(kv_config(0.3));
  ASSERT_TRUE(j.contains("pos_init_scale"));
  EXPECT_EQ(train_config_from_json(j).pos_init_scale, 0.3);
}

TEST(PositionTableInit, RefusesANegativeScaleAndAModelWithoutATable) {
  using learned_table_runs::refusal;
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.pos = PosEncoding::kLearned;
  c.pos_init_scale = -0.5;
  EXPECT_NE(refusal(c).find("pos_init_scale must be a number >= 0, got -0.5"), std::string::npos)
      << refusal(c);
  c.pos_init_scale = 0.0;
  EXPECT_EQ(refusal(c), "");
  c.pos = PosEncoding::kRope;
  EXPECT_NE(refusal(c).find("pos_init_scale scales the learned position table's init; pos rope "
                            "has no table"),
            std::string::npos)
      << refusal(c);
}

}  // namespace
}  // namespace posbias
