#include "posbias/theory/extended_real.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace posbias {
namespace {

constexpr double kUp = 0x1p256;     // 2^256
constexpr double kDown = 0x1p-256;  // 2^-256
constexpr double kHigh = 0x1p128;
constexpr double kLow = 0x1p-128;
// log10(2^256) split so that expo·kChunkLog10Hi is exact for |expo| < 2^20.
constexpr double kChunkLog10 = 77.063678889979186;  // 256·log10(2)
constexpr double kChunkLog10Hi = 77.0636749267578125;  // 23 significant bits
constexpr double kChunkLog10Lo = 0.0000039632213734747171;
constexpr double kChunkLn = 177.44567822334599921;  // 256·ln(2)

// Exact sum: s + e == a + b.
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

}  // namespace

void ExtReal::normalize() {
  if (mant_ == 0.0) {
    expo_ = 0;
    return;
  }
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

double ExtReal::mant_at(std::int64_t expo) const {
  const std::int64_t d = expo_ - expo;
  if (d == 0) return mant_;
  if (d == -1) return mant_ * kDown;
  if (d == -2) return mant_ * kDown * kDown;
  if (d < -2 || mant_ == 0.0) return 0.0;
  // d > 0: only valid when the caller guarantees the result stays finite.
  double m = mant_;
  for (std::int64_t k = 0; k < d; ++k) m *= kUp;
  return m;
}

ExtReal& ExtReal::operator*=(double f) {
  mant_ *= f;
  normalize();
  return *this;
}

ExtReal& ExtReal::operator*=(const ExtReal& o) {
  mant_ *= o.mant_;
  expo_ += o.expo_;
  normalize();
  return *this;
}

ExtReal& ExtReal::operator+=(const ExtReal& o) {
  if (o.mant_ == 0.0) return *this;
  if (mant_ == 0.0) return *this = o;
  if (o.expo_ <= expo_) {
    mant_ += o.mant_at(expo_);
  } else {
    mant_ = o.mant_ + mant_at(o.expo_);
    expo_ = o.expo_;
  }
  normalize();
  return *this;
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

void CompensatedSum<double>::add(double t) {
  double s, e;
  two_sum(hi_, t, s, e);
  hi_ = s;
  lo_ += e;
}

void CompensatedSum<double>::scale(double f) {
  const double p = hi_ * f;
  const double err = std::fma(hi_, f, -p);
  hi_ = p;
  lo_ = lo_ * f + err;
}

void CompensatedSum<ExtReal>::renormalize() {
  while (hi_ >= kHigh) {
    hi_ *= kDown;
    lo_ *= kDown;
    ++expo_;
  }
  while (hi_ != 0.0 && hi_ < kLow) {
    hi_ *= kUp;
    lo_ *= kUp;
    --expo_;
  }
}

void CompensatedSum<ExtReal>::add(const ExtReal& t) {
  if (t.is_zero()) return;
  if (hi_ == 0.0 && lo_ == 0.0) {
    hi_ = t.mant();
    expo_ = t.expo();
    return;
  }
  double tm;
  if (t.expo() <= expo_) {
    tm = t.mant_at(expo_);
  } else {
    const ExtReal cur(hi_, expo_);
    const ExtReal curlo(lo_ >= 0 ? lo_ : -lo_, expo_);
    const double scaled_hi = cur.mant_at(t.expo());
    const double scaled_lo = (lo_ >= 0 ? 1.0 : -1.0) * curlo.mant_at(t.expo());
    hi_ = scaled_hi;
    lo_ = scaled_lo;
    expo_ = t.expo();
    tm = t.mant();
  }
  double s, e;
  two_sum(hi_, tm, s, e);
  hi_ = s;
  lo_ += e;
  if (hi_ >= kHigh) renormalize();
}

void CompensatedSum<ExtReal>::scale(double f) {
  const double p = hi_ * f;
  const double err = std::fma(hi_, f, -p);
  hi_ = p;
  lo_ = lo_ * f + err;
  if (hi_ != 0.0 && hi_ < kLow) renormalize();
}

}  // namespace posbias
