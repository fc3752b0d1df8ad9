#include "posbias/theory/exact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <stdexcept>

namespace posbias {
namespace {

mpz_class binomial(std::int64_t n, std::int64_t k) {
  mpz_class out;
  mpz_bin_uiui(out.get_mpz_t(), static_cast<unsigned long>(n), static_cast<unsigned long>(k));
  return out;
}

// Coefficients c_k of Π_l ((1-α_l) + α_l z), k = 0..H: Nᴴ = Σ_k c_k Mᵏ since I and M commute.
std::vector<mpq_class> mix_polynomial(std::int64_t layers, const std::vector<mpq_class>& alpha) {
  std::vector<mpq_class> coef{mpq_class(1)};
  for (std::int64_t l = 0; l < layers; ++l) {
    const mpq_class& a = alpha.size() == 1 ? alpha[0] : alpha[static_cast<std::size_t>(l)];
    std::vector<mpq_class> next(coef.size() + 1, mpq_class(0));
    for (std::size_t k = 0; k < coef.size(); ++k) {
      next[k] += coef[k] * (1 - a);
      next[k + 1] += coef[k] * a;
    }
    coef = std::move(next);
  }
  return coef;
}

// The uniform weight of a query that sees c keys is 1/(c + w) = den(w)/(c·den(w) + num(w)):
// the integers c·den(w) + num(w), c = 1..keys (index c; index 0 unused).
std::vector<mpz_class> uniform_denominators(std::int64_t keys, const mpq_class& null_sink_weight) {
  std::vector<mpz_class> out(static_cast<std::size_t>(keys) + 1);
  for (std::int64_t c = 1; c <= keys; ++c)
    out[c] = null_sink_weight.get_den() * c + null_sink_weight.get_num();
  return out;
}

// Λ, their least common multiple: the common denominator of one layer's weights.
mpz_class lcm_of(const std::vector<mpz_class>& denominators) {
  mpz_class lcm = 1;
  for (std::size_t c = 1; c < denominators.size(); ++c)
    mpz_lcm(lcm.get_mpz_t(), lcm.get_mpz_t(), denominators[c].get_mpz_t());
  return lcm;
}

}  // namespace

mpq_class parse_rational(const std::string& text) {
  static const std::regex kFraction(R"(^\s*([0-9]+)\s*/\s*([0-9]+)\s*$)");
  static const std::regex kDecimal(R"(^\s*([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,4}))?\s*$)");
  std::smatch m;
  if (std::regex_match(text, m, kFraction)) {
    if (m[1].length() > 1000 || m[2].length() > 1000) {
      throw std::invalid_argument("rational '" + text.substr(0, 40) + "...' is too long");
    }
    mpz_class den(m[2].str(), 10);
    if (den == 0) throw std::invalid_argument("rational '" + text + "' has a zero denominator");
    mpq_class q(mpz_class(m[1].str(), 10), den);
    q.canonicalize();
    return q;
  }
  if (std::regex_match(text, m, kDecimal) && (m[1].length() + m[2].length()) > 0 &&
      m[1].length() + m[2].length() < 1000) {
    const std::string digits = m[1].str() + m[2].str();
    mpz_class num(digits.empty() ? "0" : digits, 10);
    long exponent = m[3].matched ? std::stol(m[3].str()) : 0;
    exponent -= static_cast<long>(m[2].length());
    mpz_class scale;
    mpz_ui_pow_ui(scale.get_mpz_t(), 10, static_cast<unsigned long>(std::labs(exponent)));
    mpq_class q = exponent >= 0 ? mpq_class(num * scale) : mpq_class(num, scale);
    q.canonicalize();
    return q;
  }
  throw std::invalid_argument("'" + text.substr(0, 40) +
                              "' is not a number (use a decimal like 0.18 or a fraction like 1/3)");
}

void ExactSpec::validate() const {
  if (length < 1)
    throw std::invalid_argument("length L must be >= 1, got " + std::to_string(length));
  if (query < 0 || query > length) {
    throw std::invalid_argument("query q must be in 1..L, got " + std::to_string(query));
  }
  if (query_position() > kMaxExactLength) {
    throw std::invalid_argument("--exact supports q up to " + std::to_string(kMaxExactLength) +
                                ", got " + std::to_string(query_position()) +
                                "; drop --exact for the extended-range engine");
  }
  if (layers < 0 || layers > 10000) {
    throw std::invalid_argument("--exact supports layers H in 0..10000, got " +
                                std::to_string(layers));
  }
  if (alpha.empty() || (alpha.size() != 1 && static_cast<std::int64_t>(alpha.size()) != layers)) {
    throw std::invalid_argument(
        "alpha needs one value or one per layer (H = " + std::to_string(layers) + ")");
  }
  for (const auto& a : alpha) {
    if (a < 0 || a > 1) throw std::invalid_argument("alpha must be in [0, 1], got " + a.get_str());
  }
  if (window < 0) throw std::invalid_argument("window must be >= 1, got " + std::to_string(window));
  if (sink < 0 || sink > 1)
    throw std::invalid_argument("sink must be in [0, 1], got " + sink.get_str());
  if (null_sink_weight < 0)
    throw std::invalid_argument("null-sink weight must be >= 0, got " + null_sink_weight.get_str());
}

ExactCost exact_cost(const ExactSpec& spec) {
  spec.validate();
  const std::int64_t q = spec.query_position();
  const std::int64_t w = (spec.window == 0 || spec.window >= q) ? q : spec.window;
  // log2 lcm(1..w) = Σ over primes p ≤ w of ⌊log_p w⌋·log2 p.
  std::vector<bool> composite(static_cast<std::size_t>(w) + 1, false);
  double lcm_bits = 0;
  for (std::int64_t p = 2; p <= w; ++p) {
    if (composite[static_cast<std::size_t>(p)]) continue;
    for (std::int64_t m = p * p; m <= w; m += p) composite[static_cast<std::size_t>(m)] = true;
    std::int64_t power = p;
    while (power <= w / p) power *= p;
    lcm_bits += std::log2(static_cast<double>(power));
  }
  auto bits = [](const mpz_class& z) {  // log2 z at any size
    long exponent = 0;
    const double mantissa = mpz_get_d_2exp(&exponent, z.get_mpz_t());
    return static_cast<double>(exponent) + std::log2(mantissa);
  };
  if (spec.null_sink_weight != 0)
    lcm_bits = bits(lcm_of(uniform_denominators(w, spec.null_sink_weight)));
  ExactCost cost;
  for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
    const mpq_class& a =
        spec.alpha.size() == 1 ? spec.alpha[0] : spec.alpha[static_cast<std::size_t>(layer)];
    cost.denominator_bits += lcm_bits + bits(a.get_den()) + bits(spec.sink.get_den());
  }
  const double n = static_cast<double>(q), b = std::max(cost.denominator_bits, 64.0);
  cost.peak_bytes = n * (10 * b + 3 * lcm_bits) / 8;
  cost.text_bytes = n * (2 * std::ceil(b * std::log10(2.0)) + 48);
  return cost;
}

std::vector<mpq_class> exact_influence_row(const ExactSpec& spec, const ProgressFn& progress) {
  spec.validate();
  const std::int64_t q = spec.query_position();
  const std::int64_t w = (spec.window == 0 || spec.window >= q) ? q : spec.window;
  // Common denominator Λ for the uniform weights 1/(min(i, w) + null-sink weight): lcm(1..w)
  // without a null sink. term_i = numer_i·den(weight)·Λ/(c·den + num) is numer_i·Λ/(c + weight).
  const std::vector<mpz_class> denominators = uniform_denominators(w, spec.null_sink_weight);
  const mpz_class lcm = lcm_of(denominators);
  std::vector<mpz_class> lcm_over(static_cast<std::size_t>(w) + 1);
  for (std::int64_t c = 1; c <= w; ++c)
    lcm_over[c] = lcm / denominators[c] * spec.null_sink_weight.get_den();
  const mpz_class sink_num = spec.sink.get_num(), sink_den = spec.sink.get_den();

  // value_j = numer[j] / denom
  std::vector<mpz_class> numer(static_cast<std::size_t>(q), mpz_class(0));
  numer[q - 1] = 1;
  mpz_class denom = 1;
  std::vector<mpz_class> term(static_cast<std::size_t>(q)), attn(static_cast<std::size_t>(q));
  for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
    // attn_j / (denom·factor) = (r·A)_j
    for (std::int64_t i = 1; i <= q; ++i) term[i - 1] = numer[i - 1] * lcm_over[std::min(i, w)];
    mpz_class running = 0;
    for (std::int64_t j = q; j >= 1; --j) {
      running += term[j - 1];
      if (j + w <= q) running -= term[j + w - 1];
      attn[j - 1] = running;
    }
    mpz_class factor = lcm;
    if (spec.sink != 0) {
      mpz_class total = 0;
      for (const auto& x : numer) total += x;
      for (auto& a : attn) a *= (sink_den - sink_num);
      attn[0] += sink_num * lcm * total;
      factor *= sink_den;
    }
    const mpq_class& a =
        spec.alpha.size() == 1 ? spec.alpha[0] : spec.alpha[static_cast<std::size_t>(layer)];
    const mpz_class a_num = a.get_num(), a_den = a.get_den();
    const mpz_class keep = (a_den - a_num) * factor;
    for (std::int64_t j = 0; j < q; ++j) numer[j] = keep * numer[j] + a_num * attn[j];
    denom *= a_den * factor;
    if (progress) progress(layer + 1, spec.layers);
  }
  std::vector<mpq_class> row(static_cast<std::size_t>(q));
  for (std::int64_t j = 0; j < q; ++j) {
    row[j] = mpq_class(numer[j], denom);
    row[j].canonicalize();
  }
  return row;
}

mpq_class cesaro_power_entry(std::int64_t i, std::int64_t j, std::int64_t power) {
  if (j > i || j < 1) return 0;
  if (power == 0) return i == j ? 1 : 0;
  mpq_class sum = 0;
  for (std::int64_t m = 0; m <= i - j; ++m) {
    mpz_class den;
    mpz_ui_pow_ui(den.get_mpz_t(), static_cast<unsigned long>(j + m),
                  static_cast<unsigned long>(power));
    mpq_class t(binomial(i - j, m), den);
    t.canonicalize();
    if (m % 2 == 0)
      sum += t;
    else
      sum -= t;
  }
  return sum * binomial(i - 1, j - 1);
}

std::vector<mpq_class> closed_form_row(std::int64_t query, std::int64_t layers,
                                       const std::vector<mpq_class>& alpha) {
  if (query < 1 || layers < 0) throw std::invalid_argument("closed form needs q >= 1 and H >= 0");
  if (alpha.empty() || (alpha.size() != 1 && static_cast<std::int64_t>(alpha.size()) != layers)) {
    throw std::invalid_argument("closed form needs one α or one per layer");
  }
  const std::vector<mpq_class> coef = mix_polynomial(layers, alpha);
  std::vector<mpq_class> row(static_cast<std::size_t>(query), mpq_class(0));
  for (std::int64_t k = 0; k <= layers; ++k) {
    if (coef[k] == 0) continue;
    for (std::int64_t j = 1; j <= query; ++j)
      row[j - 1] += coef[k] * cesaro_power_entry(query, j, k);
  }
  return row;
}

double log10_of(const mpq_class& x) {
  if (x == 0) return -std::numeric_limits<double>::infinity();
  // Subtract the binary exponents as integers first, so the result keeps full precision
  // even when numerator and denominator have millions of digits.
  long exp_num = 0, exp_den = 0;
  const double mant_num = mpz_get_d_2exp(&exp_num, x.get_num_mpz_t());
  const double mant_den = mpz_get_d_2exp(&exp_den, x.get_den_mpz_t());
  return std::log10(std::fabs(mant_num) / mant_den) +
         static_cast<double>(exp_num - exp_den) * 0.30102999566398119521;
}

}  // namespace posbias
