// gemm.h: oneDNN's sgemm behind plain, transposed and narrowed views must give torch's
// product, computed here in float64, and must write only the output view it is given.
#include "posbias/model/gemm.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

namespace gemm = posbias::gemm;

// Max |got − want| over max |want|, with want computed in float64.
double relative_error(const torch::Tensor& got, const torch::Tensor& a, const torch::Tensor& b) {
  const auto want = torch::mm(a.to(torch::kFloat64), b.to(torch::kFloat64));
  return (got.to(torch::kFloat64) - want).abs().max().item<double>() /
         want.abs().max().item<double>();
}

// A [rows, cols] float32 operand in one of the layouts the engine passes: contiguous,
// a transposed view, or columns narrowed out of a wider buffer (row stride > cols).
torch::Tensor operand(std::int64_t rows, std::int64_t cols, int layout) {
  switch (layout) {
    case 0:
      return torch::randn({rows, cols});
    case 1:
      return torch::randn({cols, rows}).t();
    default:
      return torch::randn({rows, cols + 5}).narrow(1, 2, cols);
  }
}

TEST(Gemm, MatchesFloat64ProductForEveryLayout) {
  torch::manual_seed(1);
  const std::vector<std::vector<std::int64_t>> shapes = {{1, 1, 1}, {1, 7, 3},    {5, 1, 4},
                                                         {6, 9, 1}, {33, 17, 64}, {128, 64, 256}};
  for (const auto& s : shapes) {
    const auto m = s[0], n = s[1], k = s[2];
    for (int la = 0; la < 3; ++la) {
      for (int lb = 0; lb < 3; ++lb) {
        const auto a = operand(m, k, la), b = operand(k, n, lb);
        // The output is a narrowed view too: the columns around it must keep their values.
        auto buffer = torch::full({m, n + 3}, 7.0f);
        auto out = buffer.narrow(1, 1, n);
        gemm::mm_out(out, a, b);
        SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " layouts " << la << lb);
        EXPECT_LT(relative_error(out, a, b), 1e-6);
        EXPECT_TRUE(buffer.narrow(1, 0, 1).eq(7.0f).all().item<bool>());
        EXPECT_TRUE(buffer.narrow(1, n + 1, 2).eq(7.0f).all().item<bool>());
      }
    }
  }
}

TEST(Gemm, OtherDtypesAndLayoutsFallBackToTorch) {
  torch::manual_seed(2);
  const auto a = torch::randn({20, 30}, torch::kFloat64),
             b = torch::randn({30, 10}, torch::kFloat64);
  auto out = torch::empty({20, 10}, torch::kFloat64);
  gemm::mm_out(out, a, b);
  EXPECT_TRUE(torch::equal(out, torch::mm(a, b)));
  // A transposed output and a zero-stride (expanded) operand are not sgemm layouts.
  const auto af = torch::randn({20, 30}), bf = torch::randn({1, 10}).expand({30, 10});
  auto out_t = torch::empty({10, 20}).t();
  gemm::mm_out(out_t, af, bf);
  EXPECT_LT(relative_error(out_t, af, bf), 1e-6);
  // K = 0 gives zeros, as torch::mm does.
  auto zero = torch::full({4, 3}, 5.0f);
  gemm::mm_out(zero, torch::empty({4, 0}), torch::empty({0, 3}));
  EXPECT_TRUE(zero.eq(0.0f).all().item<bool>());
}

TEST(Gemm, MatmulAndBatchedProducts) {
  torch::manual_seed(3);
  const auto x = torch::randn({2, 3, 5, 16}), w = torch::randn({24, 16}).t();  // [16, 24] view
  const auto y = gemm::matmul(x, w);
  ASSERT_EQ(y.sizes(), (std::vector<std::int64_t>{2, 3, 5, 24}));
  EXPECT_LT(relative_error(y.view({-1, 24}), x.view({-1, 16}), w), 1e-6);
  // The dK product of the attention backward: a batch of transposed views.
  const auto ds = torch::randn({4, 32, 3 * 32}), q = torch::randn({4, 32, 8});
  auto dk = torch::empty({4, 3 * 32, 8});
  gemm::bmm_out(dk, ds.transpose(1, 2), q);
  const auto want = torch::bmm(ds.to(torch::kFloat64).transpose(1, 2), q.to(torch::kFloat64));
  EXPECT_LT(
      (dk.to(torch::kFloat64) - want).abs().max().item<double>() / want.abs().max().item<double>(),
      1e-6);
  EXPECT_THROW(gemm::mm_out(torch::empty({3, 2}), torch::randn({3, 4}), torch::randn({5, 2})),
               c10::Error);
}

}  // namespace
