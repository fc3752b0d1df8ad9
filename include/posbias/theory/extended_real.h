// Extended-range non-negative reals for the influence engine.
//
// value = mant · 2^(256·expo) with mant kept in [2^-128, 2^128) (or exactly 0).
// Entries of e_qᵀ Nᴴ fall far below 1e-308 for large L and H; this type keeps full
// double relative precision at any magnitude and gives log10 without underflow. It is
// the "log-space" path of DESIGN.md §1: sums are max-shifted (the log-sum-exp trick)
// but the mantissa stays linear, so no precision is lost to storing large logarithms.
// Only non-negative values are supported: every term of the influence recurrence is ≥ 0.
#pragma once

#include <cstdint>
#include <string>

namespace posbias {

class ExtReal {
 public:
  static constexpr int kChunkBits = 256;

  constexpr ExtReal() = default;
  // v must be finite and >= 0.
  explicit ExtReal(double v) : mant_(v) { normalize(); }
  ExtReal(double mant, std::int64_t expo) : mant_(mant), expo_(expo) { normalize(); }

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

  ExtReal& operator*=(double f);  // f finite, >= 0
  ExtReal& operator*=(const ExtReal& o);
  ExtReal& operator+=(const ExtReal& o);
  friend ExtReal operator*(ExtReal a, double f) { return a *= f; }
  friend ExtReal operator*(ExtReal a, const ExtReal& b) { return a *= b; }
  friend ExtReal operator+(ExtReal a, const ExtReal& b) { return a += b; }
  friend bool operator<(const ExtReal& a, const ExtReal& b);
  friend bool operator==(const ExtReal& a, const ExtReal& b) = default;

  // Mantissa of this value expressed in units of 2^(256·expo); 0 when negligible.
  double mant_at(std::int64_t expo) const;

 private:
  void normalize();
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
  void add(double t);
  void scale(double f);  // multiply the running sum by f in (0, 1]
  double value() const { return hi_ + lo_; }
  void reset() { hi_ = lo_ = 0.0; }

 private:
  double hi_ = 0.0, lo_ = 0.0;
};

template <>
class CompensatedSum<ExtReal> {
 public:
  void add(const ExtReal& t);
  void scale(double f);
  ExtReal value() const { return ExtReal(hi_ + lo_, expo_); }
  void reset() { hi_ = lo_ = 0.0; expo_ = 0; }

 private:
  void renormalize();
  double hi_ = 0.0, lo_ = 0.0;
  std::int64_t expo_ = 0;
};

}  // namespace posbias
