// `posbias seeds`: one text experiment summarized over its training seeds.
#include <memory>

#include "commands.h"
#include "experiments/text/seeds_command.h"

namespace posbias::cli {

void register_seeds(CLI::App& app, Action* selected) {
  auto options = std::make_shared<SeedsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "seeds",
      "Summarize one text experiment over its training seeds: the `posbias birth --run` results "
      "of each seed (and optionally each seed's `posbias eval --run`) become per-step means with "
      "95% Student-t intervals of the U's middle-to-ends ratio, dead-zone depth, attention "
      "entropy and gradient per position, their change from the first to the last step, and "
      "held-out bits per byte and loss per position.");
  SeedsOptions& o = *options;
  cmd->add_option("birth", o.birth,
                  "birth --run --json results, one per training seed, two or more")
      ->required();
  cmd->add_option("--eval", o.eval, "eval --run --json results, one per seed in the same order");
  cmd->add_option("--json", o.json, "result file (default: stdout)");
  cmd->add_option("--csv", o.csv, "one row per step: the shape statistics with intervals");
  cmd->add_option("--plot", o.plot,
                  "figure stem: STEM_shape, STEM_profiles, STEM_gradient, STEM_loss (with --eval)");
  cmd->callback([options, selected] { *selected = [options] { run_seeds(*options); }; });
}

}  // namespace posbias::cli
