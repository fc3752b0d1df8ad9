#include "experiments/retrieval/depth_eval_flags.h"

#include <fmt/format.h>

#include "posbias/core/parse.h"
#include "posbias/stats/depth_accuracy.h"

namespace posbias {

std::string depth_eval_flags(const DepthEvalOptions& options) {
  std::string depths;
  for (double d : options.depths) depths += (depths.empty() ? "" : ",") + depth_key(d);
  std::string out = "--depths " + depths;
  if (!options.lengths.empty()) out += " --lengths " + join_integers(options.lengths);
  out += fmt::format(" --count {}", options.count);
  if (options.seed != DepthEvalOptions{}.seed) out += fmt::format(" --seed {}", options.seed);
  return out;
}

}  // namespace posbias
