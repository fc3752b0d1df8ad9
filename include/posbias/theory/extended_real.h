// Extended-range non-negative reals for the influence engine.
//
// value = mant · 2^(256·expo) with mant kept in [2^-128, 2^128) (or exactly 0).
// Entries of e_qᵀ Nᴴ fall far below 1e-308 for large L and H; this type keeps full
// double relative precision at any magnitude and gives log10 without underflow. It is
// the log-space path of the engine: sums are max-shifted (the log-sum-exp trick)
// but the mantissa stays linear, so no precision is lost to storing large logarithms.
// Only non-negative values are supported: every term of the influence recurrence is ≥ 0.
#pragma once

#include <cstdint>
#include <string>

namespace posbias {

namespace ext_detail {
inline constexpr double kUp = 0x1p256;     // 2^256
inline constexpr double kDown = 0x1p-256;  // 2^-256
inline constexpr double kHigh = 0x1p128;
inline constexpr double kLow = 0x1p-128;
// Exact sum: s + e == a + b (Knuth's TwoSum).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}
}  // namespace ext_detail

class ExtReal {
 public:
  static constexpr int kChunkBits = 256;

  constexpr ExtReal() = default;
  // v must be finite and >= 0.
  explicit ExtReal(double v) : mant_(v) { normalize(); }
  ExtReal(double mant, std::int64_t expo) : mant_(mant), expo_(expo) { normalize(); }

  // Sets mant·2^(256·expo) in place, normalizing (cheaper than building a new value).
  void assign(double mant, std::int64_t expo) {
    mant_ = mant;
    expo_ = expo;
    normalize();
  }

  static ExtReal from_ln(double ln_value);        // e^ln_value, any magnitude
  static ExtReal from_log10(double log10_value);  // 10^log10_value, any magnitude

  double mant() const { return mant_; }
  std::int64_t expo() const { return expo_; }
  bool is_zero() const { return mant_ == 0.0; }

  double to_double() const;  // rounds to the nearest double; 0 below the double range
  double log10() const;      // -inf for 0
  double ln() const;         // -inf for 0
  // Decimal text that round-trips for values in double range and keeps ~13 significant
  // digits beyond it (e.g. "3.2541e-570").
  std::string to_string() const;
  // Writes the same text into [first, last) (needs 40 bytes); returns one past the end.
  char* to_chars(char* first, char* last) const;

  ExtReal& operator*=(double f) {  // f finite, >= 0
    // A tiny f (below 2^-128, down to the subnormal 2^-1074) would take the product's digits
    // below double's range: multiply by it as an ExtReal, where it is exact.
    if (f < ext_detail::kLow && f != 0.0) return *this *= ExtReal(f);
    mant_ *= f;
    normalize();
    return *this;
  }
  ExtReal& operator*=(const ExtReal& o) {
    mant_ *= o.mant_;
    expo_ += o.expo_;
    normalize();
    return *this;
  }
  ExtReal& operator+=(const ExtReal& o) {
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
  friend ExtReal operator*(ExtReal a, double f) { return a *= f; }
  friend ExtReal operator*(ExtReal a, const ExtReal& b) { return a *= b; }
  friend ExtReal operator+(ExtReal a, const ExtReal& b) { return a += b; }
  friend bool operator<(const ExtReal& a, const ExtReal& b);
  friend bool operator==(const ExtReal& a, const ExtReal& b) = default;

  // Mantissa of this value expressed in units of 2^(256·expo); 0 when negligible.
  double mant_at(std::int64_t expo) const {
    const std::int64_t d = expo_ - expo;
    if (d == 0) return mant_;
    if (mant_ == 0.0) return 0.0;
    if (d == -1) return mant_ * ext_detail::kDown;
    if (d == -2) return mant_ * ext_detail::kDown * ext_detail::kDown;
    if (d < -2) return 0.0;
    return mant_up(d);
  }

 private:
  double mant_up(std::int64_t d) const;  // d > 0: caller guarantees a finite result
  void normalize() {
    if (mant_ >= ext_detail::kHigh || (mant_ < ext_detail::kLow && mant_ != 0.0)) renormalize();
    if (mant_ == 0.0) expo_ = 0;
  }
  void renormalize();
  double mant_ = 0.0;
  std::int64_t expo_ = 0;
};

// Compensated (TwoSum / TwoProduct) accumulator over ExtReal or double, used for the
// reverse cumulative sums and Horner recurrences of the engine. Its error does not grow
// with the number of terms, which keeps 1e-12 agreement at L = 1e6 and H in the hundreds.
template <class Real>
class CompensatedSum;

template <>
class CompensatedSum<double> {
 public:
  void add(double t) {
    double s, e;
    ext_detail::two_sum(hi_, t, s, e);
    hi_ = s;
    lo_ += e;
  }
  void scale(double f);  // multiply the running sum by f in (0, 1]
  double value() const { return hi_ + lo_; }
  void reset() { hi_ = lo_ = 0.0; }

 private:
  double hi_ = 0.0, lo_ = 0.0;
};

// The compensated ExtReal sum as a plain value (hi + lo)·2^(256·expo), so hot loops keep
// it in registers; the rare exponent changes go through the out-of-line functions.
struct ExtAccum {
  double hi = 0.0, lo = 0.0;
  std::int64_t expo = 0;
};
ExtAccum ext_accum_add_slow(ExtAccum a, double mant, std::int64_t expo);
ExtAccum ext_accum_renormalize(ExtAccum a);

// Adds mant·2^(256·expo) (mant >= 0, need not be normalized).
inline ExtAccum ext_accum_add(ExtAccum a, double mant, std::int64_t expo) {
  if (expo != a.expo || a.hi == 0.0) return ext_accum_add_slow(a, mant, expo);
  double s, e;
  ext_detail::two_sum(a.hi, mant, s, e);
  a.hi = s;
  a.lo += e;
  if (a.hi >= ext_detail::kHigh) a = ext_accum_renormalize(a);
  return a;
}

template <>
class CompensatedSum<ExtReal> {
 public:
  void add(const ExtReal& t) { acc_ = ext_accum_add(acc_, t.mant(), t.expo()); }
  void scale(double f);
  ExtReal value() const { return ExtReal(acc_.hi + acc_.lo, acc_.expo); }
  void reset() { acc_ = ExtAccum{}; }

 private:
  ExtAccum acc_;
};

}  // namespace posbias
