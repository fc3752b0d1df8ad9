// The memory plan against what libtorch really allocates: weight_bytes against the parameters'
// own sizes, forward_bytes(cached) against the bytes a forward pass keeps alive in its cache
// (glibc's count of allocated heap and mmapped bytes, before and after), for every family.
#include "posbias/model/memory_plan.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <torch/torch.h>

#include <string>
#include <tuple>

#include "posbias/core/memory.h"
#include "posbias/model/transformer.h"

namespace posbias {
namespace {

// Two layers, d 64, 4 heads (2 kv heads for Qwen2's GQA), MLP 128, vocabulary 64.
ModelConfig tiny(Family family, PosEncoding pos) {
  ModelConfig c = family_default(family);
  std::tie(c.vocab, c.layers, c.d_model, c.heads, c.mlp) = std::tuple{64, 2, 64, 4, 128};
  c.kv_heads = family == Family::kQwen2 ? 2 : c.heads;
  std::tie(c.rotary_dim, c.max_positions, c.pos, c.dropout) = std::tuple{0, 512, pos, 0.0};
  c.validate();
  return c;
}

double allocated_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks) + static_cast<double>(m.hblkhd);
}

const std::vector<std::pair<Family, PosEncoding>> kModels = {{Family::kGpt2, PosEncoding::kLearned},
                                                             {Family::kQwen2, PosEncoding::kRope},
                                                             {Family::kGptj, PosEncoding::kRope},
                                                             {Family::kGpt2, PosEncoding::kAlibi}};

TEST(MemoryPlan, WeightBytesAreTheParameters) {
  for (const auto& [family, pos] : kModels) {
    const ModelConfig c = tiny(family, pos);
    Transformer model(c);
    double bytes = 0;
    for (const auto& p : model->parameters()) bytes += 4.0 * static_cast<double>(p.numel());
    const double planned = weight_bytes(c, /*token_embeddings=*/true);
    EXPECT_NEAR(planned / bytes, 1.0, 0.1) << to_string(family) << " " << to_string(pos)
                                           << ": planned " << planned << ", real " << bytes;
  }
}

// The cache a forward pass keeps: the plan must be neither an underestimate (a run that does
// not fit would start) nor a wild overestimate (a run that fits would be refused).
TEST(MemoryPlan, ForwardCacheBytesMatchTheAllocator) {
  torch::NoGradGuard no_grad;
  for (const auto& [family, pos] : kModels) {
    for (std::int64_t length : {64, 256}) {
      const ModelConfig c = tiny(family, pos);
      Transformer model(c);
      model->eval();
      const auto x = torch::randn({2, length, c.d_model});
      const double before = allocated_bytes();
      auto cache = std::make_unique<ForwardCache>();
      model->forward_embeddings(x, cache.get());
      const double kept = allocated_bytes() - before;
      // The plan counts the transient scores of one layer on top of what stays cached.
      const double planned = forward_bytes(c, 2, length, /*cached=*/true);
      const std::string tag =
          to_string(family) + " " + to_string(pos) + " L" + std::to_string(length);
      EXPECT_GT(planned, 0.8 * kept) << tag << ": planned " << planned << ", kept " << kept;
      EXPECT_LT(planned, 3.0 * kept) << tag << ": planned " << planned << ", kept " << kept;
      cache.reset();
    }
  }
}

// Long inputs are dominated by the [B, H, L, L] attention weights: 4x per doubling of L.
TEST(MemoryPlan, ScoresDominateAtLongLengths) {
  const ModelConfig c = tiny(Family::kQwen2, PosEncoding::kRope);
  const double ratio = forward_bytes(c, 1, 65536, true) / forward_bytes(c, 1, 32768, true);
  EXPECT_NEAR(ratio, 4.0, 0.05);
  EXPECT_GT(jacobian_cotangent_bytes(c, 4096), 4.0 * 4 * 4096.0 * 4096.0 * 0.99);
}

// The blockwise path keeps [B, H, L] per layer instead of [B, H, L, L]: its cache is what the
// allocator sees, and it grows linearly in L.
TEST(MemoryPlan, BlockwiseCacheBytesMatchTheAllocatorAndGrowLinearly) {
  torch::NoGradGuard no_grad;
  for (const auto& [family, pos] : kModels) {
    for (std::int64_t length : {512, 1024}) {
      const ModelConfig c = tiny(family, pos == PosEncoding::kLearned ? PosEncoding::kNone : pos);
      Transformer model(c);
      model->eval();
      model->set_attention(AttentionPath::kBlockwise);
      const auto x = torch::randn({1, length, c.d_model});
      const double before = allocated_bytes();
      auto cache = std::make_unique<ForwardCache>();
      model->forward_embeddings(x, cache.get());
      const double kept = allocated_bytes() - before;
      const double planned =
          forward_bytes(c, 1, length, /*cached=*/true, {AttentionPath::kBlockwise, false});
      const std::string tag = to_string(family) + " L" + std::to_string(length);
      EXPECT_GT(planned, 0.8 * kept) << tag << ": planned " << planned << ", kept " << kept;
      EXPECT_LT(planned, 3.0 * kept) << tag << ": planned " << planned << ", kept " << kept;
    }
  }
  const ModelConfig c = tiny(Family::kQwen2, PosEncoding::kRope);
  const PassPlan blockwise{AttentionPath::kBlockwise, false},
      checkpointed{AttentionPath::kBlockwise, true};
  EXPECT_NEAR(
      forward_bytes(c, 1, 65536, true, blockwise) / forward_bytes(c, 1, 32768, true, blockwise),
      2.0, 0.05);
  EXPECT_LT(forward_bytes(c, 1, 65536, true, checkpointed),
            forward_bytes(c, 1, 65536, true, blockwise));
  EXPECT_NEAR(jacobian_cotangent_bytes(c, 65536, AttentionPath::kBlockwise) /
                  jacobian_cotangent_bytes(c, 32768, AttentionPath::kBlockwise),
              2.0, 0.1);
}

// The plan takes dense while it fits, then blockwise, then blockwise with checkpointing; a
// forced path is kept; nothing fitting returns the smallest plan for the caller to refuse.
TEST(MemoryPlan, JacobianPlanFallsBackInOrder) {
  ModelConfig c = family_default(Family::kQwen2);  // 24 layers, d 896, MLP 4864
  const std::int64_t length = 16384;
  const JacobianPlan open = plan_jacobian(c, length, 4, 2, false, 0);
  EXPECT_EQ(open.pass.attention, AttentionPath::kDense) << "no budget: dense";
  const JacobianPlan dense = plan_jacobian(c, length, 4, 2, false, 1e15);
  const JacobianPlan blockwise = plan_jacobian(c, length, 4, 2, false, 0.9 * dense.bytes);
  EXPECT_EQ(blockwise.pass.attention, AttentionPath::kBlockwise);
  EXPECT_FALSE(blockwise.pass.checkpoint);
  const JacobianPlan checkpointed = plan_jacobian(c, length, 4, 2, false, 0.9 * blockwise.bytes);
  EXPECT_TRUE(checkpointed.pass.checkpoint);
  // the target: Qwen2-0.5B at 16k tokens, 4 probes, within 8 GB
  EXPECT_LT(checkpointed.bytes, 8e9) << checkpointed.bytes;
  const JacobianPlan forced =
      plan_jacobian(c, length, 4, 2, false, 0.9 * blockwise.bytes, AttentionPath::kDense);
  EXPECT_EQ(forced.pass.attention, AttentionPath::kDense);
  EXPECT_GT(forced.bytes, 0.9 * blockwise.bytes) << "a forced dense plan does not fit here";
  EXPECT_EQ(checkpointed.in_flight, 4) << "every probe in one pass while that fits";
  // Below that, fewer cotangents per pass, down to one (each pass recomputes the blocks).
  const JacobianPlan halved = plan_jacobian(c, length, 4, 2, false, checkpointed.bytes - 1);
  EXPECT_TRUE(halved.pass.checkpoint);
  EXPECT_EQ(halved.in_flight, 2);
  EXPECT_LT(halved.bytes, checkpointed.bytes);
  const JacobianPlan one = plan_jacobian(c, length, 4, 2, false, halved.bytes - 1);
  EXPECT_EQ(one.in_flight, 1);
  EXPECT_LT(one.bytes, halved.bytes);
  const JacobianPlan none = plan_jacobian(c, length, 4, 2, false, 1e6);
  EXPECT_GT(none.bytes, 1e6);
  EXPECT_TRUE(none.pass.checkpoint) << "the smallest plan";
  EXPECT_EQ(none.in_flight, 1);
}

// A pass takes dense while it fits, blockwise past the budget, the forced path when given,
// and refuses in one line naming the path and the option that helps.
TEST(MemoryPlan, AttentionPlanChoosesThenRefuses) {
  auto bytes = [](double dense, double blockwise) {
    return [=](AttentionPath a) { return a == AttentionPath::kDense ? dense : blockwise; };
  };
  const auto none = std::nullopt;
  EXPECT_EQ(plan_attention(bytes(1e9, 5e8), none, 4.0, "eval", "x"), AttentionPath::kDense);
  EXPECT_EQ(plan_attention(bytes(6e9, 5e8), none, 4.0, "eval", "x"), AttentionPath::kBlockwise);
  EXPECT_EQ(plan_attention(bytes(1e9, 5e8), AttentionPath::kBlockwise, 4.0, "eval", "x"),
            AttentionPath::kBlockwise);
  auto refusal = [&](double dense, double blockwise, std::optional<AttentionPath> forced) {
    try {
      plan_attention(bytes(dense, blockwise), forced, 4.0, "eval at length 9", "shorter --lengths");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string dense = refusal(6e9, 5e8, AttentionPath::kDense);
  EXPECT_NE(dense.find("eval at length 9 (dense attention) needs about 6."), std::string::npos)
      << dense;
  EXPECT_NE(dense.find("; use --attention blockwise or shorter --lengths"), std::string::npos)
      << dense;
  const std::string blockwise = refusal(9e9, 7e9, none);
  EXPECT_NE(blockwise.find("(blockwise attention) needs about 7."), std::string::npos) << blockwise;
  EXPECT_NE(blockwise.find("; use shorter --lengths"), std::string::npos) << blockwise;
  EXPECT_EQ(blockwise.find('\n'), std::string::npos) << blockwise;
}

TEST(MemoryPlan, RequireMemoryRefusesInOneLine) {
  EXPECT_NO_THROW(require_memory(1e6, "a small run", "nothing"));
  try {
    require_memory(1e18, "birth at --length 65536", "use a smaller --length");
    FAIL() << "an exabyte was allowed";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("birth at --length 65536 needs about 1000000000.0 GB"), std::string::npos)
        << m;
    EXPECT_NE(m.find("available; use a smaller --length"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  EXPECT_GT(available_memory_bytes(), 0u);
  try {
    require_memory(5e9, "birth at --length 16384", "use --method hutchinson", 4.0);
    FAIL() << "5 GB passed a 4 GB budget";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the memory budget is 4.0 GB (--memory-budget)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(require_memory(3e9, "birth", "", 4.0));
  // A budget bounds the whole process: what it already holds is counted and left out.
  EXPECT_GT(resident_bytes(), 1e6);
  EXPECT_LT(memory_budget_bytes(4.0), 4e9);
  EXPECT_GT(memory_budget_bytes(4.0), 4e9 - 2.0 * static_cast<double>(resident_bytes()));
  EXPECT_THROW(require_memory(4e9 - 1e3, "birth", "", 4.0), std::invalid_argument);
}

}  // namespace
}  // namespace posbias
