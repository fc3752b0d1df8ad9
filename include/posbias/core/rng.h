// A small, portable, seedable random generator (SplitMix64). Unlike std::uniform_int_distribution
// its draws are the same on every standard library, so a seed names the same dataset everywhere.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace posbias {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  // Independent stream for (seed, a, b): used to key data by (seed, step, rank).
  static Rng stream(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
    Rng r(seed ^ 0x9E3779B97F4A7C15ull);
    r.state_ ^= r.next() + a * 0xBF58476D1CE4E5B9ull;
    r.state_ ^= r.next() + b * 0x94D049BB133111EBull;
    return r;
  }

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Skips n draws: the next draw is the one n draws further on (SplitMix64's state is a counter).
  void discard(std::uint64_t n) { state_ += n * 0x9E3779B97F4A7C15ull; }
  // Uniform in [0, n), n > 0, without modulo bias (rejection).
  std::int64_t below(std::int64_t n) {
    const std::uint64_t un = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % un);
    std::uint64_t x = next();
    while (x >= limit) x = next();
    return static_cast<std::int64_t>(x % un);
  }
  // Uniform in [0, 1) on the 2^53 grid of doubles (the top 53 bits of one draw).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi], lo <= hi.
  std::int64_t between(std::int64_t lo, std::int64_t hi) { return lo + below(hi - lo + 1); }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) {
      std::swap(v[i - 1], v[static_cast<std::size_t>(below(static_cast<std::int64_t>(i)))]);
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace posbias
