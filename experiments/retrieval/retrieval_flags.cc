#include "experiments/retrieval/retrieval_flags.h"

#include <fmt/format.h>

#include "posbias/core/flag_text.h"
#include "posbias/core/parse.h"
#include "posbias/tasks/retrieval_inputs.h"

namespace posbias {

std::string eval_flags(const EvalCommandOptions& options) {
  return fields_to_flags(eval_option_fields(), options, EvalCommandOptions{});
}

std::string depth_eval_flags(const DepthEvalOptions& options) {
  return eval_flags(eval_command_options(options));
}

std::string depth_eval_flags_beside(const DepthEvalOptions& base, const DepthEvalOptions& options) {
  return fields_to_flags(eval_option_fields(), eval_command_options(options),
                         eval_command_options(base));
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
