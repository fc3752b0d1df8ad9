#include "posbias/theory/model_comparison.h"

#include <cmath>
#include <stdexcept>

#include "posbias/theory/influence.h"

namespace posbias {
namespace {

std::vector<double> mean_of(const std::vector<std::vector<double>>& seeds, std::size_t first) {
  std::vector<double> mean(seeds.front().size(), 0.0);
  double n = 0;
  for (std::size_t s = first; s < seeds.size(); s += 2, ++n)
    for (std::size_t j = 0; j < mean.size(); ++j) mean[j] += seeds[s][j];
  for (double& v : mean) v /= n;
  return mean;
}

// Least squares of log10 p on x_j: the two-parameter laws.
ModelScore fit_law(const std::string& name, const std::vector<double>& fit_mean,
                   const std::vector<double>& heldout, bool log_x) {
  const std::size_t n = fit_mean.size();
  auto x_at = [&](std::size_t j) {
    const double pos = static_cast<double>(j + 1);
    return log_x ? std::log10(pos) : pos;
  };
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double x = x_at(j), y = std::log10(fit_mean[j]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double nn = static_cast<double>(n);
  const double b = (nn * sxy - sx * sy) / (nn * sxx - sx * sx);
  const double a = (sy - b * sx) / nn;
  std::vector<double> predicted(n);
  for (std::size_t j = 0; j < n; ++j) predicted[j] = std::pow(10.0, a + b * x_at(j));
  return {name, 2, shape_metrics(heldout, predicted), {a, b}};
}

}  // namespace

std::vector<ModelScore> compare_models(const ComparisonInput& in) {
  if (in.seeds.size() < 2)
    throw std::invalid_argument("the model comparison needs >= 2 seeds (half fit, half score)");
  const std::size_t n = in.seeds.front().size();
  for (const auto& row : in.seeds)
    if (row.size() != n) throw std::invalid_argument("seed profiles differ in length");
  const std::vector<double> fit_mean = mean_of(in.seeds, 0), heldout = mean_of(in.seeds, 1);

  std::vector<ModelScore> out;
  FitSpec spec = in.theory;
  spec.include_query = true;
  spec.bootstrap = 0;
  const FitResult f = fit_profile(MeasuredProfile{fit_mean, {}}, spec);
  out.push_back({"theory_fit",
                 2,
                 shape_metrics(heldout, from_log10_row(f.theory_log10)),
                 {f.alpha, f.log10_gain}});
  if (!in.nofit.empty()) out.push_back({"theory_nofit", 0, shape_metrics(heldout, in.nofit), {}});
  if (!in.rollout.empty()) out.push_back({"rollout", 0, shape_metrics(heldout, in.rollout), {}});
  out.push_back(fit_law("power_law", fit_mean, heldout, /*log_x=*/true));
  out.push_back(fit_law("exponential", fit_mean, heldout, /*log_x=*/false));
  return out;
}

}  // namespace posbias
