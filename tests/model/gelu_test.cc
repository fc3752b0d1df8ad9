// The fused tanh-GELU against torch::gelu(x, "tanh") (libtorch's own kernel, Sleef tanh) and
// its double-precision result:
// values and autograd gradients over the whole float range that matters, including large
// magnitudes where the exp is clamped, sizes that exercise the vector tails, and the fallback
// for non-float32 or strided inputs.
#include "posbias/model/gelu.h"

#include <gtest/gtest.h>

namespace posbias {
namespace {

torch::Tensor inputs(std::int64_t n) {
  torch::manual_seed(11);
  auto x = torch::randn({n}) * 4;
  auto extremes =
      torch::tensor({0.0f, -0.0f, 1e-30f, -1e-30f, 30.f, -30.f, 88.f, -88.f, 1e4f, -1e4f});
  return torch::cat({x, extremes, torch::linspace(-12, 12, 997)});
}

// Against libtorch's float kernel and, as the reference, its double-precision kernel: the
// fused kernel is at least as close to the double result as libtorch's float32 is.
TEST(FusedGelu, ValuesAndGradientsMatchLibtorch) {
  for (std::int64_t n : {1, 15, 16, 17, 100003}) {
    const auto base = inputs(n);
    auto a = base.clone().requires_grad_(true);
    auto b = base.clone().requires_grad_(true);
    auto c = base.to(torch::kFloat64).requires_grad_(true);
    const auto ya = gelu_tanh(a), yb = torch::gelu(b, "tanh"), yc = torch::gelu(c, "tanh");
    const auto w = torch::randn_like(base);
    (ya * w).sum().backward();
    (yb * w).sum().backward();
    (yc * w.to(torch::kFloat64)).sum().backward();
    const auto ref = yc.to(torch::kFloat32), gref = c.grad().to(torch::kFloat32);
    const auto scale = 1 + ref.abs(), gscale = 1 + gref.abs();
    const double ours = ((ya - ref).abs() / scale).max().item<double>();
    const double theirs = ((yb - ref).abs() / scale).max().item<double>();
    const double gours = ((a.grad() - gref).abs() / gscale).max().item<double>();
    const double gtheirs = ((b.grad() - gref).abs() / gscale).max().item<double>();
    EXPECT_LE(ours, std::max(theirs, 3e-7)) << "n " << n;
    EXPECT_LE(gours, std::max(gtheirs, 3e-7)) << "n " << n;
    EXPECT_LT(ours, 1e-6);
    EXPECT_LT(gours, 1e-6);
  }
}

TEST(FusedGelu, FallsBackForOtherInputs) {
  const auto d = torch::randn({7, 5}, torch::kFloat64);
  EXPECT_TRUE(torch::equal(gelu_tanh(d), torch::gelu(d, "tanh")));
  const auto strided = torch::randn({6, 8}).t();
  EXPECT_TRUE(torch::allclose(gelu_tanh(strided), torch::gelu(strided, "tanh"), 1e-6, 1e-6));
}

}  // namespace
}  // namespace posbias
