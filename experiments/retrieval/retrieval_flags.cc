#include "experiments/retrieval/retrieval_flags.h"

#include <fmt/format.h>

#include "posbias/core/parse.h"
#include "posbias/stats/depth_accuracy.h"
#include "posbias/tasks/retrieval_inputs.h"

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

std::string answer_influence_flags(const AnswerInfluenceOptions& options) {
  std::string out = fmt::format("--inputs {} --target answer --checkpoints {}",
                                to_string(options.inputs), to_string(options.checkpoints));
  if (options.length > 0) out += fmt::format(" --length {}", options.length);
  out += fmt::format(" --depths {} --seeds {}", join_integers(options.depths), options.per_depth);
  if (options.seed != AnswerInfluenceOptions{}.seed) out += fmt::format(" --seed {}", options.seed);
  return out;
}

}  // namespace posbias
