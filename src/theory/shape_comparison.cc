#include "posbias/theory/shape_comparison.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "posbias/stats/bootstrap.h"

namespace posbias {
namespace {

double median(std::vector<double> v) {
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  if (v.size() % 2 == 1) return v[m];
  const double hi = v[m];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m)) + hi) / 2;
}

}  // namespace

std::vector<double> unit_sum(const std::vector<double>& p) {
  double sum = 0;
  for (double v : p) {
    if (!(std::isfinite(v) && v > 0))
      throw std::invalid_argument("a profile to compare must be finite and > 0 at every position");
    sum += v;
  }
  std::vector<double> out(p.size());
  for (std::size_t j = 0; j < p.size(); ++j) out[j] = p[j] / sum;
  return out;
}

ShapeMetrics shape_metrics(const std::vector<double>& measured,
                           const std::vector<double>& predicted) {
  if (measured.size() != predicted.size() || measured.size() < 2)
    throw std::invalid_argument("measured and predicted profiles need the same length >= 2");
  const std::vector<double> m = unit_sum(measured), p = unit_sum(predicted);
  const std::size_t n = m.size();
  ShapeMetrics s;
  std::vector<double> err(n);
  double cm = 0, cp = 0, w1 = 0;
  for (std::size_t j = 0; j < n; ++j) {
    err[j] = std::abs(std::log10(m[j] / p[j]));
    if (j + 1 < n) cm += m[j], cp += p[j], w1 += std::abs(cm - cp);
  }
  s.median_abs_log10_error = median(err);
  s.max_abs_log10_error = *std::max_element(err.begin(), err.end());
  s.w1 = w1 / static_cast<double>(n - 1);
  s.argmin_measured = std::min_element(m.begin(), m.end()) - m.begin();
  s.argmin_predicted = std::min_element(p.begin(), p.end()) - p.begin();
  const std::size_t mid = (n + 1) / 2 - 1;  // ⌈L/2⌉, 0-based
  s.recency_measured = m.back() / m[mid];
  s.recency_predicted = p.back() / p[mid];
  s.primacy_measured = m.front() / m[mid];
  s.primacy_predicted = p.front() / p[mid];
  return s;
}

ShapeComparison compare_shape(const MeasuredProfile& measured, const std::vector<double>& predicted,
                              int bootstrap, std::uint64_t seed) {
  ShapeComparison out;
  out.at_mean = shape_metrics(measured.mean, predicted);
  std::vector<double> med, mx, w1, argmin, rec, pri;
  if (measured.seeds.size() >= 2) {
    std::mt19937_64 rng(seed);
    for (int b = 0; b < bootstrap; ++b) {
      const ShapeMetrics m = shape_metrics(resampled_sum(measured.seeds, rng), predicted);
      med.push_back(m.median_abs_log10_error);
      mx.push_back(m.max_abs_log10_error);
      w1.push_back(m.w1);
      argmin.push_back(static_cast<double>(m.argmin_measured));
      rec.push_back(m.recency_measured);
      pri.push_back(m.primacy_measured);
    }
  }
  out.median_abs_log10_error = percentile_interval(med);
  out.max_abs_log10_error = percentile_interval(mx);
  out.w1 = percentile_interval(w1);
  out.argmin_measured = percentile_interval(argmin);
  out.recency_measured = percentile_interval(rec);
  out.primacy_measured = percentile_interval(pri);
  return out;
}

}  // namespace posbias
