#include "experiments/retrieval/depth_eval_output.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "experiments/seeds/seed_summary.h"
#include "posbias/core/atomic_file.h"

namespace posbias {

std::string depth_cell_csv(const DepthCell& c) {
  return fmt::format("{},{},{},{},{},{}", c.n, c.correct, csv_cell(c.accuracy), csv_cell(c.lo),
                     csv_cell(c.hi), csv_cell(c.chance));
}

void print_depth_eval_summary(const std::string& task, std::int64_t step, const DepthAccuracy& a) {
  std::fprintf(stderr,
               "eval: %s at step %lld; effective length %s (threshold %g); U verdict pooled over "
               "lengths: %s\n",
               task.c_str(), static_cast<long long>(step),
               a.effective_length ? std::to_string(*a.effective_length).c_str() : "none",
               a.threshold, a.u_pooled.verdict.c_str());
}

void write_depth_eval(const std::string& task, const DepthEvalOutputs& to,
                      const nlohmann::json& json, const std::string& csv, const Figure& heatmap,
                      const Figure& by_depth, std::int64_t step, const DepthAccuracy& accuracy) {
  write_output(to.json, json.dump(2) + "\n");
  if (!to.csv.empty()) write_output(to.csv, csv);
  if (!to.plot.empty()) {
    render_figure(heatmap, to.plot + "-heatmap");
    render_figure(by_depth, to.plot + "-depth");
  }
  print_depth_eval_summary(task, step, accuracy);
}

}  // namespace posbias
