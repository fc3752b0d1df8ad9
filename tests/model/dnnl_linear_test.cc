// dnnl_linear.h: the linear layer through oneDNN's sgemm against torch::nn::functional::linear
// and its autograd. In float32 the output and the gradients dx, dW, db are within the golden
// tests' tolerance (1e-5; relative to the tensor's largest entry when above 1) of torch's and
// of the float64 result, and no less accurate than torch's float32, at small shapes, vector
// tails and the hop model's (1088 rows, d 128, MLP 512); float64, strided inputs and a
// strided weight, and a product under autocast go to torch's own linear and give its result
// bit for bit.
#include "posbias/model/dnnl_linear.h"

#include <ATen/autocast_mode.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace posbias {
namespace {

// Largest absolute error, relative to the tensor's largest entry when that is above 1: dW sums
// 1088 products at the hop shapes, entries reach ~100 and float32 rounding of such a sum is
// ~1e-5 absolute whatever the order, in torch's sum as in ours.
double worst_error(const torch::Tensor& got, const torch::Tensor& want) {
  const auto w = want.to(torch::kFloat64);
  return ((got.to(torch::kFloat64) - w).abs().max() / w.abs().max().clamp_min(1.0)).item<double>();
}

struct Result {
  torch::Tensor y, dx, dw, db;
};

using View = torch::Tensor (*)(const torch::Tensor&);
torch::Tensor same(const torch::Tensor& t) { return t; }

// Output and gradients of sum(y·r) through `f`, from fresh leaves copied from x, w, b; the
// layer sees view(leaf) of x and w (a transposed or narrowed layout), the grads are the leaves'.
template <class F>
Result run(F&& f, const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b,
           const torch::Tensor& r, View x_view, View w_view) {
  const auto xl = x.detach().clone().requires_grad_(true);
  const auto wl = w.detach().clone().requires_grad_(true);
  const auto bl = b.defined() ? b.detach().clone().requires_grad_(true) : torch::Tensor();
  const auto y = f(x_view(xl), w_view(wl), bl);
  (y * r).sum().backward();
  return {y.detach(), xl.grad(), wl.grad(), bl.defined() ? bl.grad() : torch::Tensor()};
}

Result ours(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b,
            const torch::Tensor& r, View x_view = same, View w_view = same) {
  return run([](const auto& xv, const auto& wv, const auto& bl) { return dnnl_linear(xv, wv, bl); },
             x, w, b, r, x_view, w_view);
}

Result torchs(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b,
              const torch::Tensor& r, View x_view = same, View w_view = same) {
  return run([](const auto& xv, const auto& wv,
                const auto& bl) { return torch::nn::functional::linear(xv, wv, bl); },
             x, w, b, r, x_view, w_view);
}

void expect_close(const Result& got, const Result& want, double tolerance, const std::string& tag) {
  EXPECT_LT(worst_error(got.y, want.y), tolerance) << tag << " y";
  EXPECT_LT(worst_error(got.dx, want.dx), tolerance) << tag << " dx";
  EXPECT_LT(worst_error(got.dw, want.dw), tolerance) << tag << " dW";
  if (want.db.defined()) {
    EXPECT_LT(worst_error(got.db, want.db), tolerance) << tag << " db";
  }
}

void expect_equal(const Result& got, const Result& want, const std::string& tag) {
  EXPECT_TRUE(torch::equal(got.y, want.y)) << tag << " y";
  EXPECT_TRUE(torch::equal(got.dx, want.dx)) << tag << " dx";
  EXPECT_TRUE(torch::equal(got.dw, want.dw)) << tag << " dW";
  if (want.db.defined()) {
    EXPECT_TRUE(torch::equal(got.db, want.db)) << tag << " db";
  }
}

// [rows..., K] input, [N, K] weight at the scale of an initialized layer, a bias or none.
struct Case {
  std::vector<std::int64_t> x_sizes;
  std::int64_t n;
  bool bias;
};

TEST(DnnlLinear, Float32MatchesTorchAndFloat64) {
  torch::manual_seed(5);
  const std::vector<Case> cases = {{{1, 1}, 1, true},           {{7}, 3, true},
                                   {{5, 9}, 17, false},         {{2, 3, 33}, 65, true},
                                   {{64, 17, 128}, 384, false}, {{64, 17, 128}, 512, true},
                                   {{64, 17, 512}, 128, true},  {{64, 128}, 1024, true}};
  for (const auto& c : cases) {
    const auto k = c.x_sizes.back();
    const auto x = torch::randn(c.x_sizes);
    const auto w = torch::randn({c.n, k}) / std::sqrt(static_cast<double>(k));
    const auto b = c.bias ? torch::randn({c.n}) * 0.1 : torch::Tensor();
    auto out_sizes = c.x_sizes;
    out_sizes.back() = c.n;
    const auto r = torch::randn(out_sizes);
    const std::string tag = std::to_string(x.numel() / k) + "x" + std::to_string(k) + "→" +
                            std::to_string(c.n) + (c.bias ? " bias" : "");
    const Result got = ours(x, w, b, r), theirs = torchs(x, w, b, r);
    expect_close(got, theirs, 1e-5, tag + " vs torch f32");
    const auto d = [](const torch::Tensor& t) { return t.defined() ? t.to(torch::kFloat64) : t; };
    const Result exact = torchs(d(x), d(w), d(b), d(r));
    expect_close(got, exact, 1e-5, tag + " vs f64");
    // No less accurate than OpenBLAS's float32 (within a factor 2 and float32's last bit).
    EXPECT_LE(worst_error(got.y, exact.y), 2 * worst_error(theirs.y, exact.y) + 6e-8) << tag;
    EXPECT_LE(worst_error(got.dx, exact.dx), 2 * worst_error(theirs.dx, exact.dx) + 6e-8) << tag;
    EXPECT_LE(worst_error(got.dw, exact.dw), 2 * worst_error(theirs.dw, exact.dw) + 6e-8) << tag;
    EXPECT_EQ(got.y.sizes(), theirs.y.sizes()) << tag;
  }
}

// The dnnl path is the one taken for float32, and without grad it gives the same bits.
TEST(DnnlLinear, TakesTheDnnlPathWithAndWithoutGrad) {
  torch::manual_seed(6);
  const auto x = torch::randn({4, 6, 32}).requires_grad_(true);
  const auto w = torch::randn({48, 32}).requires_grad_(true);
  const auto b = torch::randn({48}).requires_grad_(true);
  const auto y = dnnl_linear(x, w, b);
  ASSERT_TRUE(y.grad_fn());
  EXPECT_NE(y.grad_fn()->name().find("DnnlLinear"), std::string::npos) << y.grad_fn()->name();
  torch::NoGradGuard no_grad;
  EXPECT_TRUE(torch::equal(dnnl_linear(x, w, b), y.detach()));
}

// Only the gradients asked for (a frozen input and bias), from an expanded cotangent (sum's).
TEST(DnnlLinear, GradientsOnlyWhereRequired) {
  torch::manual_seed(7);
  const auto x = torch::randn({10, 16});
  const auto w = torch::randn({8, 16}).requires_grad_(true);
  const auto b = torch::randn({8});
  dnnl_linear(x, w, b).sum().backward();
  ASSERT_TRUE(w.grad().defined());
  EXPECT_LT(worst_error(w.grad(), torch::ones({10, 8}).t().mm(x)), 1e-5);
  EXPECT_FALSE(x.grad().defined());
}

// Under create_graph the backward is differentiable: a second derivative as torch's.
TEST(DnnlLinear, BackwardIsDifferentiableUnderCreateGraph) {
  torch::manual_seed(9);
  const auto r = torch::randn({6, 5, 8}), s = torch::randn({6, 5, 12});
  std::vector<torch::Tensor> second;
  for (int ours_path = 0; ours_path < 2; ++ours_path) {
    torch::manual_seed(10);
    const auto x = torch::randn({6, 5, 12}).requires_grad_(true);
    const auto w = torch::randn({8, 12}).requires_grad_(true);
    const auto b = torch::randn({8}).requires_grad_(true);
    const auto y = ours_path ? dnnl_linear(x, w, b) : torch::nn::functional::linear(x, w, b);
    const auto dx = torch::autograd::grad({(y * r).sum()}, {x}, {}, true, /*create_graph=*/true)[0];
    (dx * s).sum().backward();
    second.push_back(w.grad());
  }
  EXPECT_LT(worst_error(second[1], second[0]), 1e-5);
}

torch::Tensor transposed(const torch::Tensor& t) { return t.t(); }
torch::Tensor narrowed(const torch::Tensor& t) { return t.narrow(1, 2, 16); }

// float64, a transposed or narrowed input, a transposed weight: torch's linear, bit for bit.
TEST(DnnlLinear, OtherDtypesAndLayoutsFallBackToTorch) {
  torch::manual_seed(8);
  const auto r = torch::randn({12, 20});
  {
    const auto x = torch::randn({12, 16}, torch::kFloat64);
    const auto w = torch::randn({20, 16}, torch::kFloat64);
    const auto b = torch::randn({20}, torch::kFloat64);
    const auto r64 = r.to(torch::kFloat64);
    expect_equal(ours(x, w, b, r64), torchs(x, w, b, r64), "f64");
    expect_equal(ours(x, w, {}, r64), torchs(x, w, {}, r64), "f64 no bias");
  }
  const auto w = torch::randn({20, 16});
  const auto b = torch::randn({20});
  const auto tall = torch::randn({16, 12});
  ASSERT_FALSE(transposed(tall).is_contiguous());
  expect_equal(ours(tall, w, b, r, transposed), torchs(tall, w, b, r, transposed), "transposed x");
  const auto wide = torch::randn({12, 19});
  ASSERT_FALSE(narrowed(wide).is_contiguous());
  expect_equal(ours(wide, w, b, r, narrowed), torchs(wide, w, b, r, narrowed), "narrowed x");
  const auto x = torch::randn({12, 16}), wt = torch::randn({16, 20});
  expect_equal(ours(x, wt, b, r, same, transposed), torchs(x, wt, b, r, same, transposed),
               "transposed weight");
  // Under CPU autocast (--precision bf16) torch's linear runs in bfloat16: so does ours.
  const bool was = at::autocast::is_cpu_enabled();
  const auto was_dtype = at::autocast::get_autocast_cpu_dtype();
  at::autocast::set_cpu_enabled(true);
  at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
  const auto y = dnnl_linear(x, w, b), want = torch::nn::functional::linear(x, w, b);
  at::autocast::set_cpu_enabled(was);
  at::autocast::set_autocast_cpu_dtype(was_dtype);
  at::autocast::clear_cache();
  EXPECT_EQ(y.scalar_type(), torch::kBFloat16);
  EXPECT_TRUE(torch::equal(y, want)) << "autocast";
}

}  // namespace
}  // namespace posbias
