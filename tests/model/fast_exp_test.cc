// The float32 exp of the model's kernels (posbias/model/fast_exp.h) against std::exp in double,
// over each caller's inputs: the fused GELU's e^t, t in [−87, 87] (gelu.cc clamps t there), and
// the blockwise softmax rows' e^x, x ≤ 0 (exactly 0 below −87.3 and at −∞). Every 101st float of
// each range by bit pattern (every binade alike), evaluated in loops compiled as the kernels'
// are: the baseline, and AVX2 with FMA and AVX-512 where the CPU has them (FMA rounds the
// polynomial differently).
#include "posbias/model/fast_exp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace posbias {
namespace {

// 2 float ulp at 1: what the header promises.
constexpr double kBound = 2.0 / (1 << 23);

void exp_base(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = fast_exp(x[i]);
}
__attribute__((target("avx2,fma"))) void exp_avx2(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = fast_exp(x[i]);
}
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma"))) void exp_avx512(
    const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = fast_exp(x[i]);
}

struct Variant {
  std::string name;
  void (*run)(const float*, float*, std::size_t);
};

std::vector<Variant> variants() {
  __builtin_cpu_init();
  std::vector<Variant> v = {{"baseline", exp_base}};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    v.push_back({"avx2+fma", exp_avx2});
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
    v.push_back({"avx512", exp_avx512});
  return v;
}

// Every 101st float of [lo, hi] by bit pattern, both signs, and lo and hi themselves.
std::vector<float> floats_in(float lo, float hi) {
  std::vector<float> out = {lo, hi};
  const auto top = std::bit_cast<std::uint32_t>(std::max(std::abs(lo), std::abs(hi)));
  for (std::uint32_t bits = 0; bits <= top; bits += 101) {
    const float m = std::bit_cast<float>(bits);
    if (m <= hi) out.push_back(m);
    if (-m >= lo) out.push_back(-m);
  }
  return out;
}

// The largest |fast_exp(x) − e^x| / e^x over xs.
double max_relative_error(const Variant& v, const std::vector<float>& xs) {
  std::vector<float> ys(xs.size());
  v.run(xs.data(), ys.data(), xs.size());
  double worst = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double want = std::exp(static_cast<double>(xs[i]));
    const double error = std::abs(static_cast<double>(ys[i]) - want) / want;
    worst = std::isnan(error) ? std::numeric_limits<double>::infinity() : std::max(worst, error);
  }
  return worst;
}

TEST(FastExp, GeluRangeWithinTwoUlp) {
  const std::vector<float> xs = floats_in(-87.0f, 87.0f);
  for (const Variant& v : variants()) {
    const double e = max_relative_error(v, xs);
    std::cout << "gelu range [-87, 87], " << v.name << ": max relative error " << e << " over "
              << xs.size() << " floats\n";
    EXPECT_LE(e, kBound) << v.name;
  }
}

TEST(FastExp, SoftmaxRangeWithinTwoUlpAndZeroBelow) {
  const std::vector<float> xs = floats_in(-87.3f, 0.0f);
  for (const Variant& v : variants()) {
    const double e = max_relative_error(v, xs);
    std::cout << "softmax range [-87.3, 0], " << v.name << ": max relative error " << e << " over "
              << xs.size() << " floats\n";
    EXPECT_LE(e, kBound) << v.name;
    const std::vector<float> in = {0.0f, -87.31f, -100.0f, -1e30f,
                                   -std::numeric_limits<float>::infinity()};
    std::vector<float> out(in.size());
    v.run(in.data(), out.data(), in.size());
    EXPECT_EQ(out[0], 1.0f) << v.name << ": the row's maximum weighs exactly 1";
    for (std::size_t i = 1; i < in.size(); ++i) EXPECT_EQ(out[i], 0.0f) << v.name << " " << in[i];
  }
}

}  // namespace
}  // namespace posbias
