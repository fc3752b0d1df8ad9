#include "posbias/theory/fit_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace posbias {

Figure fit_figure(const MeasuredProfile& profile, const FitResult& r, const std::string& title) {
  Figure fig;
  Panel p;
  p.title = title;
  p.xlabel = "key position";
  p.ylabel = "influence ‖∂y_q/∂x_j‖";
  p.log10_y = true;
  p.xmin = 0;
  p.xmax = static_cast<double>(profile.mean.size() - 1);
  Series measured;
  measured.title = "measured" + (r.seeds > 1 ? " (mean, band = seed range)" : std::string());
  measured.style = "linespoints pt 7 ps 0.4";
  Series theory;
  char buf[160];
  std::snprintf(buf, sizeof buf, "theory, %s paths, α = %.3f (Spearman %.3f, log R² %.3f)",
                to_string(r.paths).c_str(), r.alpha, r.spearman, r.log_r2);
  theory.title = buf;
  for (std::size_t i : thin_indices(profile.mean.size())) {
    const double x = static_cast<double>(i);
    measured.x.push_back(x);
    measured.y.push_back(std::log10(profile.mean[i]));
    if (r.seeds > 1) {
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& s : profile.seeds) lo = std::min(lo, s[i]), hi = std::max(hi, s[i]);
      measured.y_low.push_back(std::log10(lo));
      measured.y_high.push_back(std::log10(hi));
    }
    theory.x.push_back(x);
    theory.y.push_back(r.theory_log10[i]);
  }
  p.series = {measured, theory};
  fig.panels = {p};
  return fig;
}

}  // namespace posbias
