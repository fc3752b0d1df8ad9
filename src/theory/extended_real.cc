#include "posbias/theory/extended_real.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace posbias {
namespace {

using ext_detail::kDown;
using ext_detail::kHigh;
using ext_detail::kLow;
using ext_detail::kUp;
using ext_detail::two_sum;
// log10(2^256) split so that expo·kChunkLog10Hi is exact for |expo| < 2^20.
constexpr double kChunkLog10 = 77.063678889979186;     // 256·log10(2)
constexpr double kChunkLog10Hi = 77.0636749267578125;  // 23 significant bits
constexpr double kChunkLog10Lo = 0.0000039632213734747171;
constexpr double kChunkLn = 177.44567822334599921;  // 256·ln(2)

}  // namespace

void ExtReal::renormalize() {
  if (mant_ == 0.0 || !std::isfinite(mant_)) return;
  while (mant_ >= kHigh) {
    mant_ *= kDown;
    ++expo_;
  }
  while (mant_ < kLow) {
    mant_ *= kUp;
    --expo_;
  }
}

ExtReal ExtReal::from_ln(double ln_value) {
  if (std::isinf(ln_value) && ln_value < 0) return ExtReal();
  const double chunks = std::floor(ln_value / kChunkLn);
  return ExtReal(std::exp(ln_value - chunks * kChunkLn), static_cast<std::int64_t>(chunks));
}

ExtReal ExtReal::from_log10(double log10_value) {
  if (std::isinf(log10_value) && log10_value < 0) return ExtReal();
  const double chunks = std::floor(log10_value / kChunkLog10);
  const double rest = (log10_value - chunks * kChunkLog10Hi) - chunks * kChunkLog10Lo;
  return ExtReal(std::pow(10.0, rest), static_cast<std::int64_t>(chunks));
}

double ExtReal::to_double() const {
  if (mant_ == 0.0) return 0.0;
  if (expo_ > 4) return std::numeric_limits<double>::infinity();
  if (expo_ < -5) return 0.0;
  return std::ldexp(mant_, static_cast<int>(expo_) * kChunkBits);
}

double ExtReal::log10() const {
  if (mant_ == 0.0) return -std::numeric_limits<double>::infinity();
  const double e = static_cast<double>(expo_);
  return std::log10(mant_) + e * kChunkLog10Lo + e * kChunkLog10Hi;
}

double ExtReal::ln() const {
  if (mant_ == 0.0) return -std::numeric_limits<double>::infinity();
  return std::log(mant_) + static_cast<double>(expo_) * kChunkLn;
}

std::string ExtReal::to_string() const {
  char buf[64];
  return std::string(buf, to_chars(buf, buf + sizeof buf));
}

char* ExtReal::to_chars(char* first, char* last) const {
  if (mant_ == 0.0) {
    *first = '0';
    return first + 1;
  }
  const double d = to_double();
  if (std::isnormal(d)) return std::to_chars(first, last, d).ptr;
  // Beyond the normal double range: decimal mantissa and exponent from log10.
  const double l = log10();
  double e = std::floor(l);
  double m = std::pow(10.0, l - e);
  if (m >= 9.9999999999995) {
    m /= 10;
    e += 1;
  }
  char* end = std::to_chars(first, last, m, std::chars_format::fixed, 12).ptr;
  while (end > first && end[-1] == '0') --end;
  if (end > first && end[-1] == '.') --end;
  *end++ = 'e';
  return std::to_chars(end, last, static_cast<long long>(e)).ptr;
}

double ExtReal::mant_up(std::int64_t d) const {
  double m = mant_;
  for (std::int64_t k = 0; k < d; ++k) m *= kUp;
  return m;
}

bool operator<(const ExtReal& a, const ExtReal& b) {
  if (a.mant_ == 0.0 || b.mant_ == 0.0) return a.mant_ < b.mant_;
  if (a.expo_ != b.expo_) {
    // mantissas may overlap across one chunk; compare at the larger exponent
    const std::int64_t e = std::max(a.expo_, b.expo_);
    return a.mant_at(e) < b.mant_at(e);
  }
  return a.mant_ < b.mant_;
}

void CompensatedSum<double>::scale(double f) {
  const double p = hi_ * f;
  const double err = std::fma(hi_, f, -p);
  hi_ = p;
  lo_ = lo_ * f + err;
}

ExtAccum ext_accum_renormalize(ExtAccum a) {
  while (a.hi >= kHigh) {
    a.hi *= kDown;
    a.lo *= kDown;
    ++a.expo;
  }
  while (a.hi != 0.0 && a.hi < kLow) {
    a.hi *= kUp;
    a.lo *= kUp;
    --a.expo;
  }
  return a;
}

ExtAccum ext_accum_add_slow(ExtAccum a, double mant, std::int64_t expo) {
  if (mant == 0.0) return a;
  if (a.hi == 0.0 && a.lo == 0.0) return ext_accum_renormalize({mant, 0.0, expo});
  const ExtReal t(mant, expo);
  if (t.expo() > a.expo) {
    // Rebase the running sum to the term's larger exponent.
    const ExtReal hi(a.hi, a.expo), lo(std::fabs(a.lo), a.expo);
    const double lo_sign = a.lo >= 0 ? 1.0 : -1.0;
    a = {hi.mant_at(t.expo()), lo_sign * lo.mant_at(t.expo()), t.expo()};
  }
  double s, e;
  two_sum(a.hi, t.mant_at(a.expo), s, e);
  a.hi = s;
  a.lo += e;
  return ext_accum_renormalize(a);
}

void CompensatedSum<ExtReal>::scale(double f) {
  const double p = acc_.hi * f;
  const double err = std::fma(acc_.hi, f, -p);
  acc_.hi = p;
  acc_.lo = acc_.lo * f + err;
  if (acc_.hi != 0.0 && acc_.hi < kLow) acc_ = ext_accum_renormalize(acc_);
}

}  // namespace posbias
