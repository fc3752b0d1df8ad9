// e^x in float32 for the vectorized loops of the model's kernels: the fused GELU (e^(−2z), its
// argument clamped to [−87, 87]) and the float32 blockwise softmax rows (e^(s − max), x ≤ 0,
// −∞ for masked keys). Cephes' expf: x = n·ln 2 + r with ln 2 in two parts (so r keeps its
// bits at |x| near 87), |r| ≤ ln 2 / 2, a degree-5 polynomial in r, 2^n through the exponent
// bits. Branch-free, so the loops over it vectorize. Within 2 float ulp of e^x for
// −87.3 ≤ x ≤ 88 (tests/model/fast_exp_test.cc measures it over both kernels' ranges); exactly 0
// below −87.3 and at −∞; above 88 the exponent overflows (callers keep x ≤ 88).
#pragma once

#include <bit>

namespace posbias {

inline __attribute__((always_inline)) float fast_exp(float x) {
  const float xc = x < -87.3f ? -87.3f : x;
  const float t = xc * 1.44269504088896341f;
  const float n = (t + 12582912.0f) - 12582912.0f;  // t rounded to the nearest integer
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * (r * r) + r + 1.0f;
  const float two_n = std::bit_cast<float>((static_cast<int>(n) + 127) << 23);
  return x < -87.3f ? 0.0f : y * two_n;
}

}  // namespace posbias
