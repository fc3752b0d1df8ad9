// The fused dropped residual (dropout.h) against libtorch's ops, x + a·mask_a + m·mask_m: the
// value and the gradients of x, a and m bit for bit (sizes with vector tails and the parallel
// grain's), and the masks' draws are the stream's, the same as apply_dropout's.
#include "posbias/model/dropout.h"

#include <gtest/gtest.h>

namespace posbias {
namespace {

PositionContext context(double p, std::uint64_t seed) {
  PositionContext pos;
  pos.dropout = std::make_shared<DropoutSource>(DropoutSource{Rng(seed), p});
  return pos;
}

TEST(DroppedResidual, EqualsLibtorchsOpsBitForBit) {
  for (std::int64_t n : {1, 15, 17, 40000, 100003}) {
    torch::manual_seed(static_cast<std::uint64_t>(n));
    const auto x0 = torch::randn({n}), a0 = torch::randn({n}) * 3, m0 = torch::randn({n}) * 1e-3;
    const PositionContext pos = context(0.1, 9);
    const auto mask_a = dropout_mask({n}, pos), mask_m = dropout_mask({n}, pos);
    const auto w = torch::randn({n});
    auto x = x0.clone().requires_grad_(true), a = a0.clone().requires_grad_(true),
         m = m0.clone().requires_grad_(true);
    const auto y = dropped_residual(x, a, m, mask_a, mask_m);
    (y * w).sum().backward();
    auto xr = x0.clone().requires_grad_(true), ar = a0.clone().requires_grad_(true),
         mr = m0.clone().requires_grad_(true);
    const auto yr = xr + ar * mask_a + mr * mask_m;
    (yr * w).sum().backward();
    EXPECT_TRUE(torch::equal(y, yr)) << n;
    EXPECT_TRUE(torch::equal(x.grad(), xr.grad())) << n;
    EXPECT_TRUE(torch::equal(a.grad(), ar.grad())) << n;
    EXPECT_TRUE(torch::equal(m.grad(), mr.grad())) << n;
  }
}

TEST(DroppedResidual, MasksAreTheStreamsNextDrawsAsApplyDropoutMakesThem) {
  const PositionContext first = context(0.25, 3), second = context(0.25, 3);
  const auto ones = torch::ones({5, 7});
  const auto mask = dropout_mask({5, 7}, first);
  EXPECT_TRUE(torch::equal(mask, apply_dropout(ones, second)));
  EXPECT_FALSE(torch::equal(dropout_mask({5, 7}, first), mask));  // the stream moved on
  EXPECT_FALSE(dropout_mask({3}, PositionContext{}).defined());
}

}  // namespace
}  // namespace posbias
