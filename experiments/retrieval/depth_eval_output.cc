#include "experiments/retrieval/depth_eval_output.h"

#include <fmt/format.h>

#include <cstdio>

#include "experiments/seeds/seed_summary.h"

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

}  // namespace posbias
