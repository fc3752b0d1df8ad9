#include "posbias/theory/continuum.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace posbias {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log1p(std::exp(lo - hi));
}

double safe_log(double v) { return v > 0.0 ? std::log(v) : kNegInf; }

// Q(k, t) for k = 1..H: P(Gamma(k,1) >= t) = e^{-t} Σ_{i<k} t^i / i!, in log space.
std::vector<double> log_upper_gamma(std::int64_t layers, double t) {
  std::vector<double> out(static_cast<std::size_t>(layers) + 1, kNegInf);
  if (t <= 0.0) {
    std::fill(out.begin(), out.end(), 0.0);
    return out;
  }
  if (std::isinf(t)) return out;
  double acc = kNegInf;
  const double log_t = std::log(t);
  for (std::int64_t k = 1; k <= layers; ++k) {
    const auto i = static_cast<double>(k - 1);
    acc = log_add(acc, -t + i * log_t - std::lgamma(i + 1.0));
    out[k] = acc;
  }
  return out;
}

}  // namespace

Continuum::Continuum(std::int64_t layers, const std::vector<double>& alpha) : layers_(layers) {
  if (layers < 0 || layers > kMaxLayers) {
    throw std::invalid_argument("continuum needs 0 <= H <= " + std::to_string(kMaxLayers) +
                                ", got " + std::to_string(layers));
  }
  if (alpha.empty() || (alpha.size() != 1 && static_cast<std::int64_t>(alpha.size()) != layers)) {
    throw std::invalid_argument("continuum needs one α or one per layer");
  }
  const auto h = static_cast<std::size_t>(layers);
  log_weights_.assign(h + 1, kNegInf);
  if (alpha.size() == 1) {
    const double a = alpha[0];
    for (std::size_t k = 0; k <= h; ++k) {
      const double lk = static_cast<double>(k), lh = static_cast<double>(h);
      const double log_binom = std::lgamma(lh + 1) - std::lgamma(lk + 1) - std::lgamma(lh - lk + 1);
      const double term_keep = (h - k == 0) ? 0.0 : (lh - lk) * safe_log(1.0 - a);
      const double term_mix = (k == 0) ? 0.0 : lk * safe_log(a);
      log_weights_[k] = log_binom + term_keep + term_mix;
    }
    return;
  }
  log_weights_[0] = 0.0;
  for (std::size_t l = 0; l < h; ++l) {
    // new w_k = (1-α) w_k + α w_{k-1}, descending so w_{k-1} is still the old value.
    const double keep = safe_log(1.0 - alpha[l]), mix = safe_log(alpha[l]);
    for (std::size_t k = l + 2; k-- > 0;) {
      const double below = k >= 1 ? log_weights_[k - 1] + mix : kNegInf;
      log_weights_[k] = log_add(log_weights_[k] + keep, below);
    }
  }
}

double Continuum::recency_mass() const { return std::exp(log_weights_[0]); }

double Continuum::log10_density(double x) const {
  if (!(x > 0.0 && x < 1.0)) return kNegInf;
  const double t = std::log(1.0 / x);
  double acc = kNegInf;
  for (std::int64_t k = 1; k <= layers_; ++k) {
    if (log_weights_[k] == kNegInf) continue;
    const double i = static_cast<double>(k - 1);
    const double term = log_weights_[k] + (k == 1 ? 0.0 : i * std::log(t)) - std::lgamma(i + 1.0);
    acc = log_add(acc, term);
  }
  return acc / std::log(10.0);
}

double Continuum::density(double x) const { return std::pow(10.0, log10_density(x)); }

double Continuum::mass(double a, double b) const {
  if (!(a >= 0.0 && b <= 1.0 && a <= b)) {
    throw std::invalid_argument("mass interval must satisfy 0 <= a <= b <= 1");
  }
  // P(X <= b) for X a product of k uniforms = Q(k, ln 1/b).
  const std::vector<double> upper_b =
      log_upper_gamma(layers_, b > 0 ? std::log(1.0 / b) : INFINITY);
  const std::vector<double> upper_a =
      log_upper_gamma(layers_, a > 0 ? std::log(1.0 / a) : INFINITY);
  double total = 0.0;
  for (std::int64_t k = 1; k <= layers_; ++k) {
    if (log_weights_[k] == kNegInf) continue;
    total += std::exp(log_weights_[k]) * (std::exp(upper_b[k]) - std::exp(upper_a[k]));
  }
  return total;
}

double Continuum::middle_to_ends() const {
  const double middle = mass(0.25, 0.75);
  const double ends = mass(0.0, 0.25) + mass(0.75, 1.0) + recency_mass();
  return ends > 0.0 ? middle / ends : INFINITY;
}

}  // namespace posbias
