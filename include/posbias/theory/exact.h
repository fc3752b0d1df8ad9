// Exact rational influence rows (GMP): the ground truth for tests and `theory --exact`.
//
// exact_influence_row runs the same recurrence as influence.h with integer numerators over
// one common denominator, so no gcd is taken until the end. closed_form_row evaluates the
// alternating closed form (docs/theory.md),
//   (Mᴴ)[i][j] = C(i-1,j-1) · Σ_{m=0..i-j} (-1)^m C(i-j,m) / (j+m)^H,
// which cancels catastrophically in floating point and is therefore only offered exactly.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace posbias {

// Parses "0.18", "1/3", "2.5e-3", "1" exactly. Throws std::invalid_argument on bad text.
mpq_class parse_rational(const std::string& text);

struct ExactSpec {
  std::int64_t length = 0;       // L
  std::int64_t query = 0;        // q; 0 = last
  std::int64_t layers = 0;       // H
  std::vector<mpq_class> alpha;  // one value or H values, each in [0, 1]
  std::int64_t window = 0;       // uniform sliding window W; 0 = none
  mpq_class sink = 0;            // sink share in [0, 1]
  // A null sink's weight w = e^b in every query's normalizer (operator.h): the uniform weights
  // become 1/(min(i, W) + w). e^b is irrational for rational b ≠ 0, so the exact path takes w
  // itself as the given rational; `theory --exact --null-sink b` passes the double nearest e^b,
  // exactly (a dyadic rational). 0 = none.
  mpq_class null_sink_weight = 0;

  void validate() const;  // throws std::invalid_argument
  std::int64_t query_position() const { return query == 0 ? length : query; }
};

// Largest q accepted by exact mode (numerators grow like lcm(1..q)^H).
constexpr std::int64_t kMaxExactLength = 20000;

// What exact_influence_row will hold, from the spec alone: the common denominator's bits (each
// layer multiplies it by Λ·den(α)·den(sink), Λ = lcm over c = 1..W of c + w, as integers
// (c·den(w) + num(w)), which is lcm(1..W) without a null sink; every numerator stays below it), the
// peak bytes of the recurrence's q numerators with their working copies and the final row (about 10
// bits of memory per denominator bit per position, as measured at q = 1000..4000, H = 1..16),
// and a bound on the row written as decimal fractions (two numbers of at most the
// denominator's digits per position).
struct ExactCost {
  double denominator_bits = 0;
  double peak_bytes = 0;
  double text_bytes = 0;
};
ExactCost exact_cost(const ExactSpec& spec);

using ProgressFn = std::function<void(std::int64_t done, std::int64_t total)>;

std::vector<mpq_class> exact_influence_row(const ExactSpec& spec, const ProgressFn& progress = {});

// Closed form for the Cesàro operator (no window, no sink). O(q²·H); small q only.
std::vector<mpq_class> closed_form_row(std::int64_t query, std::int64_t layers,
                                       const std::vector<mpq_class>& alpha);
mpq_class cesaro_power_entry(std::int64_t i, std::int64_t j, std::int64_t power);

// log10 of a positive rational at any magnitude; -inf for 0.
double log10_of(const mpq_class& x);

}  // namespace posbias
