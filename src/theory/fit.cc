#include "posbias/theory/fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "posbias/stats/bootstrap.h"
#include "posbias/theory/influence.h"

namespace posbias {
namespace {

constexpr double kAlphaMin = 1e-6;  // α = 0 gives r = e_L: no signal before L

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t k = i;
    while (k + 1 < idx.size() && v[idx[k + 1]] == v[idx[i]]) ++k;
    const double avg = (static_cast<double>(i) + static_cast<double>(k)) / 2.0 + 1.0;
    for (std::size_t t = i; t <= k; ++t) r[idx[t]] = avg;
    i = k + 1;
  }
  return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  if (saa == 0 || sbb == 0) return 0.0;
  return sab / std::sqrt(saa * sbb);
}

// log10 r_j(α) for j = 1..L with the query at L.
std::vector<double> theory_log10(const FitSpec& spec, std::int64_t length, double alpha) {
  InfluenceSpec is;
  is.length = length;
  is.layers = spec.layers;
  is.alpha = {alpha};
  is.op = spec.op;
  is.paths = spec.paths;
  return log10_row(influence_row(is));
}

struct LogFit {
  double sse = std::numeric_limits<double>::infinity();
  double log10_gain = 0;
};

// Optimal gain in closed form: mean residual over positions 1..L-1 (1..L with the query).
LogFit log_fit(const std::vector<double>& y, const std::vector<double>& t, bool with_query) {
  const std::size_t n = with_query ? y.size() : y.size() - 1;
  double shift = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (!std::isfinite(t[j])) return {};
    shift += y[j] - t[j];
  }
  shift /= static_cast<double>(n);
  double sse = 0;
  for (std::size_t j = 0; j < n; ++j) sse += (y[j] - t[j] - shift) * (y[j] - t[j] - shift);
  return {sse, shift};
}

double fit_alpha(const std::vector<double>& y, const FitSpec& spec) {
  const auto length = static_cast<std::int64_t>(y.size());
  auto sse = [&](double a) {
    return log_fit(y, theory_log10(spec, length, a), spec.include_query).sse;
  };
  constexpr int kGrid = 40;
  double best_a = 1.0, best = std::numeric_limits<double>::infinity();
  for (int g = 0; g <= kGrid; ++g) {
    const double a = std::max(kAlphaMin, static_cast<double>(g) / kGrid);
    const double v = sse(a);
    if (v < best) best = v, best_a = a;
  }
  // Golden-section refinement inside the neighbouring grid cells.
  double lo = std::max(kAlphaMin, best_a - 1.0 / kGrid), hi = std::min(1.0, best_a + 1.0 / kGrid);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = sse(x1), f2 = sse(x2);
  for (int it = 0; it < 60 && hi - lo > 1e-9; ++it) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = sse(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = sse(x2);
    }
  }
  const double a = (lo + hi) / 2;
  return sse(a) <= best ? a : best_a;
}

std::vector<double> log10_of(const std::vector<double>& p) {
  std::vector<double> out(p.size());
  std::transform(p.begin(), p.end(), out.begin(), [](double v) { return std::log10(v); });
  return out;
}

std::vector<double> head(const std::vector<double>& v) { return {v.begin(), v.end() - 1}; }

}  // namespace

void MeasuredProfile::validate() const {
  if (mean.size() < 4) {
    throw std::invalid_argument("a profile needs at least 4 positions, got " +
                                std::to_string(mean.size()));
  }
  for (std::size_t j = 0; j < mean.size(); ++j) {
    if (!std::isfinite(mean[j]) || mean[j] <= 0.0) {
      throw std::invalid_argument("profile value at position " + std::to_string(j + 1) +
                                  " must be finite and > 0 for a log-space fit");
    }
  }
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    if (seeds[s].size() != mean.size()) {
      throw std::invalid_argument("seed profile " + std::to_string(s) + " has " +
                                  std::to_string(seeds[s].size()) + " positions, expected " +
                                  std::to_string(mean.size()));
    }
    for (double v : seeds[s]) {
      if (!std::isfinite(v) || v <= 0.0) {
        throw std::invalid_argument("seed profile " + std::to_string(s) +
                                    " has a value <= 0 or not finite");
      }
    }
  }
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2)
    throw std::invalid_argument("spearman needs two equal-length vectors");
  return pearson(ranks(a), ranks(b));
}

double r_squared(const std::vector<double>& observed, const std::vector<double>& predicted) {
  const double n = static_cast<double>(observed.size());
  const double mean = std::accumulate(observed.begin(), observed.end(), 0.0) / n;
  double ss_res = 0, ss_tot = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    ss_res += (observed[i] - predicted[i]) * (observed[i] - predicted[i]);
    ss_tot += (observed[i] - mean) * (observed[i] - mean);
  }
  return ss_tot > 0 ? 1.0 - ss_res / ss_tot : 0.0;
}

double wasserstein1(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.empty())
    throw std::invalid_argument("wasserstein1 needs equal-length profiles");
  const double sa = std::accumulate(a.begin(), a.end(), 0.0);
  const double sb = std::accumulate(b.begin(), b.end(), 0.0);
  if (!(sa > 0 && sb > 0)) throw std::invalid_argument("wasserstein1 needs positive mass");
  double ca = 0, cb = 0, w = 0;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    ca += a[i] / sa;
    cb += b[i] / sb;
    w += std::fabs(ca - cb);
  }
  return w / static_cast<double>(a.size());
}

void FitSpec::validate() const {
  if (layers < 1)
    throw std::invalid_argument("fit needs layers H >= 1, got " + std::to_string(layers));
  if (bootstrap < 0 || bootstrap > 100000) {
    throw std::invalid_argument("--bootstrap must be in 0..100000, got " +
                                std::to_string(bootstrap));
  }
  op.validate();
}

FitResult fit_profile(const MeasuredProfile& profile, const FitSpec& spec) {
  profile.validate();
  spec.validate();
  const auto length = static_cast<std::int64_t>(profile.mean.size());
  const std::vector<double> y = log10_of(profile.mean);

  FitResult out;
  out.seeds = static_cast<int>(profile.seeds.size());
  out.paths = spec.paths;
  out.alpha = fit_alpha(y, spec);
  const std::vector<double> t = theory_log10(spec, length, out.alpha);
  const LogFit lf = log_fit(y, t, spec.include_query);
  if (!std::isfinite(lf.sse)) {
    throw std::runtime_error(
        "the theory row is zero at some positions for every α (is the window "
        "too short for H layers?); cannot fit in log space");
  }
  out.log10_gain = lf.log10_gain;
  out.theory_log10.resize(t.size());
  for (std::size_t j = 0; j < t.size(); ++j) out.theory_log10[j] = t[j] + lf.log10_gain;
  out.log_r2 = r_squared(head(y), head(out.theory_log10));
  out.spearman = spearman(head(y), head(t));
  out.w1 = wasserstein1(head(profile.mean), head(from_log10_row(t)));
  out.log10_last_measured = y.back();
  out.log10_last_predicted = out.theory_log10.back();

  out.spearman_best = -2;
  for (int g = 1; g <= 100; ++g) {
    const double a = g / 100.0;
    const std::vector<double> tg = theory_log10(spec, length, a);
    const double s = spearman(head(y), head(tg));
    if (s > out.spearman_best) out.spearman_best = s, out.alpha_spearman = a;
  }

  out.alpha_ci_low = out.alpha_ci_high = std::numeric_limits<double>::quiet_NaN();
  if (profile.seeds.size() >= 2 && spec.bootstrap > 0) {
    std::mt19937_64 rng(spec.seed);
    std::vector<double> alphas;
    for (int b = 0; b < spec.bootstrap; ++b)
      alphas.push_back(fit_alpha(log10_of(resampled_sum(profile.seeds, rng)), spec));
    const Interval ci = percentile_interval(alphas);
    out.alpha_ci_low = ci.low;
    out.alpha_ci_high = ci.high;
  }
  return out;
}

}  // namespace posbias
