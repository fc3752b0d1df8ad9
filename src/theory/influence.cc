#include "posbias/theory/influence.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "posbias/core/enum_names.h"

namespace posbias {
namespace {

constexpr std::int64_t kBytesPerPosition = 96;  // row, scratch, weights, output text

// Real-type helpers so one template serves double and ExtReal.
inline double to_real(double v, double) { return v; }
inline ExtReal to_real(double v, ExtReal) { return ExtReal(v); }
inline double square_root(double v) { return std::sqrt(v); }
inline ExtReal square_root(const ExtReal& v) {
  const double l = v.log10();
  return std::isfinite(l) ? ExtReal::from_log10(0.5 * l) : ExtReal(0.0);
}
inline double real_exp(double ln_value, double) { return std::exp(ln_value); }
inline ExtReal real_exp(double ln_value, ExtReal) { return ExtReal::from_ln(ln_value); }

// Z(c) = Σ_{t=0}^{c-1} e^{-m t}: the softmax normalizer over c keys with ALiBi slope m.
double alibi_normalizer(double m, std::int64_t c) {
  if (m == 0.0) return static_cast<double>(c);
  return std::expm1(-m * static_cast<double>(c)) / std::expm1(-m);
}

// s_j = Σ_{i=j}^{min(j+W-1,q)} v_i ρ^{i-j},  v_i = r_i / (Z(min(i, W)) + w),  ρ = e^{-m}, w the
// null sink's weight (0: none).
// Full window: one reverse compensated Horner pass. Finite window: blocks of W positions;
// a key range [j, j+W-1] is a suffix of j's block plus a prefix of the next, so only
// non-negative terms are ever added (no running-difference cancellation).
template <class Real>
void add_decayed_window(const std::vector<Real>& r, double m, std::int64_t window, double weight,
                        double null_sink_weight, std::vector<Real>& out) {
  const auto q = static_cast<std::int64_t>(r.size());
  const std::int64_t w = (window == 0 || window >= q) ? q : window;
  const double rho = std::exp(-m);
  std::vector<Real> v(static_cast<std::size_t>(q));
  for (std::int64_t i = 1; i <= q; ++i) {
    v[i - 1] = r[i - 1] * (weight / (alibi_normalizer(m, std::min(i, w)) + null_sink_weight));
  }
  if (w == q) {
    CompensatedSum<Real> acc;
    for (std::int64_t j = q; j >= 1; --j) {
      if (m != 0.0) acc.scale(rho);
      acc.add(v[j - 1]);
      out[j - 1] += acc.value();
    }
    return;
  }
  std::vector<Real> powers(static_cast<std::size_t>(w + 1));  // ρ^t, t = 0..W
  for (std::int64_t t = 0; t <= w; ++t) powers[t] = real_exp(-m * static_cast<double>(t), Real());
  std::vector<Real> suffix(static_cast<std::size_t>(w));
  std::vector<Real> prefix(static_cast<std::size_t>(w));
  for (std::int64_t start = 1; start <= q; start += w) {
    const std::int64_t end = std::min(start + w - 1, q);  // this block: [start, end]
    CompensatedSum<Real> acc;
    for (std::int64_t j = end; j >= start; --j) {
      if (m != 0.0) acc.scale(rho);
      acc.add(v[j - 1]);
      suffix[j - start] = acc.value();
    }
    const std::int64_t next = end + 1;  // next block: [next, next_end]
    const std::int64_t next_end = std::min(next + w - 1, q);
    acc.reset();
    for (std::int64_t k = next; k <= next_end; ++k) {
      acc.add(v[k - 1] * powers[k - next]);
      prefix[k - next] = acc.value();
    }
    for (std::int64_t j = start; j <= end; ++j) {
      Real s = suffix[j - start];
      const std::int64_t k = std::min(j + w - 1, q);
      if (k >= next) s += prefix[k - next] * powers[next - j];
      out[j - 1] += s;
    }
  }
}

template <class Real>
std::vector<Real> apply_operator_t(const AttentionOperator& op, const std::vector<Real>& r) {
  std::vector<Real> out(r.size(), to_real(0.0, Real()));
  const std::vector<double> slopes =
      op.alibi_slopes.empty() ? std::vector<double>{0.0} : op.alibi_slopes;
  const double head_weight = (1.0 - op.sink) / static_cast<double>(slopes.size());
  for (double m : slopes)
    add_decayed_window(r, m, op.window, head_weight, op.null_sink_weight, out);
  if (op.sink > 0.0 && !r.empty()) {
    CompensatedSum<Real> total;
    for (const Real& x : r) total.add(x);
    out[0] += total.value() * op.sink;
  }
  return out;
}

// The paper's case, fused: one reverse pass per layer does s_j = Σ_{i>=j} r_i / i and the
// residual mix in place (r_j is consumed before it is overwritten). The accumulators are
// plain values so the loop keeps them in registers.
struct DoubleAccum {
  double hi = 0.0, lo = 0.0;
};

// The double twin of ext_accum_add: adds one term with TwoSum compensation.
inline DoubleAccum accum_add(DoubleAccum a, double term) {
  double s, e;
  ext_detail::two_sum(a.hi, term, s, e);
  return {s, a.lo + e};
}

DoubleAccum cesaro_range(std::vector<double>& r, std::int64_t first, std::int64_t last,
                         double alpha, DoubleAccum acc) {
  const double keep = 1.0 - alpha;
  for (std::int64_t j = last; j >= first; --j) {
    double& rj = r[j - 1];
    acc = accum_add(acc, rj / static_cast<double>(j));
    rj = keep * rj + alpha * (acc.hi + acc.lo);
  }
  return acc;
}

// The same pass for α below 2^-128 (down to the subnormal 2^-1074): α·s_j would fall below
// double's range in the mantissa, so α is carried as an ExtReal and the two terms are added
// as ExtReals (1 - α rounds to 1 there).
ExtAccum cesaro_range_tiny_alpha(std::vector<ExtReal>& r, std::int64_t first, std::int64_t last,
                                 double alpha, ExtAccum acc) {
  const ExtReal a(alpha);
  const double keep = 1.0 - alpha;
  for (std::int64_t j = last; j >= first; --j) {
    ExtReal& rj = r[j - 1];
    acc = ext_accum_add(acc, rj.mant() / static_cast<double>(j), rj.expo());
    rj = rj * keep + ExtReal(acc.hi + acc.lo, acc.expo) * a;
  }
  return acc;
}

ExtAccum cesaro_range(std::vector<ExtReal>& r, std::int64_t first, std::int64_t last, double alpha,
                      ExtAccum acc) {
  if (alpha != 0.0 && alpha < ext_detail::kLow)
    return cesaro_range_tiny_alpha(r, first, last, alpha, acc);
  const double keep = 1.0 - alpha;
  for (std::int64_t j = last; j >= first; --j) {
    ExtReal& rj = r[j - 1];
    acc = ext_accum_add(acc, rj.mant() / static_cast<double>(j), rj.expo());
    // r_j <= j·s_j, so r_j sits at most one exponent chunk above the sum: mant_at is finite.
    rj.assign(keep * rj.mant_at(acc.expo) + alpha * (acc.hi + acc.lo), acc.expo);
  }
  return acc;
}

// All H Cesàro layers. Each layer is one descending pass, and layer l+1 at position j only
// needs layer l's output at positions >= j, so two threads pipeline the layers: thread t
// runs layers l ≡ t (mod 2), block by block, never passing the previous layer's frontier.
// Every layer does exactly the serial arithmetic, so results are bit-identical to one thread.
constexpr std::int64_t kPipelineBlock = 4096;

template <class Real>
void cesaro_layers(std::vector<Real>& r, const InfluenceSpec& spec) {
  using Accum = decltype(cesaro_range(r, 1, 0, 0.0, {}));
  const auto q = static_cast<std::int64_t>(r.size());
  const std::int64_t layers = spec.layers;
  if (q < 4 * kPipelineBlock || layers < 2) {
    for (std::int64_t l = 0; l < layers; ++l) cesaro_range(r, 1, q, spec.alpha_at(l), Accum{});
    return;
  }
  // frontier[l] = lowest position layer l has finished (q + 1: not started).
  std::vector<std::atomic<std::int64_t>> frontier(static_cast<std::size_t>(layers));
  for (auto& f : frontier) f.store(q + 1, std::memory_order_relaxed);
  auto run = [&](std::int64_t parity) {
    for (std::int64_t l = parity; l < layers; l += 2) {
      Accum acc{};
      for (std::int64_t hi = q; hi >= 1; hi -= kPipelineBlock) {
        const std::int64_t lo = std::max<std::int64_t>(1, hi - kPipelineBlock + 1);
        if (l > 0) {
          while (frontier[l - 1].load(std::memory_order_acquire) > lo) std::this_thread::yield();
        }
        acc = cesaro_range(r, lo, hi, spec.alpha_at(l), acc);
        frontier[l].store(lo, std::memory_order_release);
      }
    }
  };
  std::thread odd(run, 1);
  run(0);
  odd.join();
}

// Σ_k c_k (e_qᵀ A^k)² with c_k = Σ_{|S| = k} Π_{l∈S} α_l² Π_{l∉S} (1-α_l)² (built layer by
// layer, O(H²)), then the square root. O(q·H) operator applications.
template <class Real>
std::vector<Real> quadrature_row_t(const InfluenceSpec& spec) {
  const std::int64_t q = spec.query_position();
  const auto h = static_cast<std::size_t>(spec.layers);
  std::vector<Real> c(h + 1, to_real(0.0, Real()));
  c[0] = to_real(1.0, Real());
  for (std::size_t l = 0; l < h; ++l) {
    const double a = spec.alpha_at(static_cast<std::int64_t>(l));
    const Real a_squared = to_real(a, Real()) * to_real(a, Real());  // α² < 1e-308 stays exact
    for (std::size_t k = l + 1; k >= 1; --k)
      c[k] = c[k] * ((1 - a) * (1 - a)) + c[k - 1] * a_squared;
    c[0] = c[0] * ((1 - a) * (1 - a));
  }
  std::vector<Real> power(static_cast<std::size_t>(q), to_real(0.0, Real()));
  power[q - 1] = to_real(1.0, Real());
  std::vector<Real> sum(power.size(), to_real(0.0, Real()));
  for (std::size_t k = 0; k <= h; ++k) {
    if (k > 0) power = apply_operator_t(spec.op, power);
    for (std::size_t j = 0; j < sum.size(); ++j) sum[j] = sum[j] + c[k] * (power[j] * power[j]);
  }
  for (auto& v : sum) v = square_root(v);
  return sum;
}

template <class Real>
std::vector<Real> influence_row_t(const InfluenceSpec& spec) {
  spec.validate();
  if (spec.paths == PathSum::kQuadrature) return quadrature_row_t<Real>(spec);
  const std::int64_t q = spec.query_position();
  std::vector<Real> r(static_cast<std::size_t>(q), to_real(0.0, Real()));
  r[q - 1] = to_real(1.0, Real());
  const bool cesaro = spec.op.is_cesaro();
  if (cesaro) {
    cesaro_layers(r, spec);
    return r;
  }
  for (std::int64_t layer = 0; layer < spec.layers; ++layer) {
    const double alpha = spec.alpha_at(layer);
    const std::vector<Real> s = apply_operator_t(spec.op, r);
    for (std::size_t j = 0; j < r.size(); ++j) r[j] = r[j] * (1.0 - alpha) + s[j] * alpha;
  }
  return r;
}

}  // namespace

namespace {
constexpr EnumNames<PathSum, 2> kPathSumNames{
    {{PathSum::kLinear, "linear"}, {PathSum::kQuadrature, "quadrature"}}};
}  // namespace

PathSum parse_path_sum(const std::string& name) { return value_of(kPathSumNames, name, "--paths"); }

std::string to_string(PathSum p) { return std::string(name_of(kPathSumNames, p)); }

std::int64_t max_influence_length() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const std::int64_t phys = (pages > 0 && page_size > 0)
                                ? static_cast<std::int64_t>(pages) * page_size
                                : (std::int64_t{4} << 30);
  return phys / 2 / kBytesPerPosition;
}

void InfluenceSpec::validate() const {
  if (length < 1) {
    throw std::invalid_argument("length L must be >= 1, got " + std::to_string(length));
  }
  if (length > max_influence_length()) {
    throw std::invalid_argument("length L = " + std::to_string(length) +
                                " does not fit in memory (max " +
                                std::to_string(max_influence_length()) + " on this machine)");
  }
  if (query < 0 || query > length) {
    throw std::invalid_argument("query q must be in 1..L (L = " + std::to_string(length) +
                                "), got " + std::to_string(query));
  }
  if (layers < 0) {
    throw std::invalid_argument("layers H must be >= 0, got " + std::to_string(layers));
  }
  if (layers > 1000000) {
    throw std::invalid_argument("layers H = " + std::to_string(layers) + " is absurd (max 1e6)");
  }
  if (alpha.empty()) throw std::invalid_argument("alpha needs at least one value");
  if (alpha.size() != 1 && static_cast<std::int64_t>(alpha.size()) != layers) {
    throw std::invalid_argument("alpha has " + std::to_string(alpha.size()) + " values but H = " +
                                std::to_string(layers) + " layers: give one α or one per layer");
  }
  for (double a : alpha) {
    if (!(a >= 0.0 && a <= 1.0)) {
      throw std::invalid_argument("alpha must be in [0, 1], got " + std::to_string(a));
    }
  }
  op.validate();
}

std::vector<ExtReal> influence_row(const InfluenceSpec& spec) {
  return influence_row_t<ExtReal>(spec);
}
std::vector<double> influence_row_double(const InfluenceSpec& spec) {
  return influence_row_t<double>(spec);
}
std::vector<double> apply_operator(const AttentionOperator& op, const std::vector<double>& r) {
  return apply_operator_t(op, r);
}
std::vector<ExtReal> apply_operator(const AttentionOperator& op, const std::vector<ExtReal>& r) {
  return apply_operator_t(op, r);
}

std::vector<double> from_log10_row(const std::vector<double>& l) {
  const double top = *std::max_element(l.begin(), l.end());
  std::vector<double> out(l.size());
  for (std::size_t j = 0; j < l.size(); ++j) out[j] = std::max(1e-300, std::pow(10.0, l[j] - top));
  return out;
}

std::vector<double> log10_row(const std::vector<ExtReal>& row) {
  std::vector<double> out(row.size());
  std::transform(row.begin(), row.end(), out.begin(), [](const ExtReal& x) { return x.log10(); });
  return out;
}

}  // namespace posbias
