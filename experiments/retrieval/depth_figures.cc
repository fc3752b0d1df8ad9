#include "experiments/retrieval/depth_figures.h"

#include <algorithm>

namespace posbias {

Figure depth_heatmap_figure(const DepthAccuracy& a, const std::string& title,
                            const std::string& depth_label) {
  Panel p;
  p.title = title;
  p.xlabel = "context length (tokens)";
  p.ylabel = depth_label;
  Heatmap& h = p.heatmap;
  for (int len : a.lengths) h.x_labels.push_back(std::to_string(len));
  for (double d : a.depths) h.y_labels.push_back(depth_key(d));
  for (std::size_t d = 0; d < a.depths.size(); ++d) {
    std::vector<double>& row = h.z.emplace_back();
    for (std::size_t l = 0; l < a.lengths.size(); ++l) row.push_back(a.cells[l][d].accuracy);
  }
  h.zmin = 0;
  h.zmax = 1;
  h.z_label = "exact-match accuracy";
  Figure f;
  f.panels = {p};
  f.width = std::max(560, 160 + 90 * static_cast<int>(a.lengths.size()));
  return f;
}

Figure depth_curve_figure(const DepthAccuracy& a, const std::vector<std::string>& panel_titles,
                          const std::string& depth_label, const std::string& chance_title) {
  Figure f;
  for (std::size_t l = 0; l < a.lengths.size(); ++l) {
    Panel p;
    p.title = panel_titles.at(l);
    p.xlabel = depth_label;
    p.ylabel = "exact-match accuracy";  // x: the depths measured
    p.ymin = 0;
    p.ymax = 1.02;
    Series acc, chance;
    acc.title = "accuracy (Wilson 95%)";
    acc.style = "linespoints";
    chance.title = chance_title;
    chance.style = "lines dt 2";
    chance.line_width = 1;
    for (std::size_t d = 0; d < a.depths.size(); ++d) {
      const DepthCell& c = a.cells[l][d];
      acc.x.push_back(a.depths[d]);
      acc.y.push_back(c.accuracy);
      acc.y_low.push_back(c.lo);
      acc.y_high.push_back(c.hi);
      chance.x.push_back(a.depths[d]);
      chance.y.push_back(c.chance);
    }
    p.series = {acc, chance};
    f.panels.push_back(std::move(p));
  }
  f.width = 380 * static_cast<int>(std::max<std::size_t>(1, a.lengths.size()));
  f.height = 420;
  return f;
}

}  // namespace posbias
