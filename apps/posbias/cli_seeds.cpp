// `posbias seeds`: one experiment summarized over its training seeds (a text experiment from
// its birth files, or hop runs from their summary, eval, heads and discrepancy files).
#include <memory>

#include "commands.h"
#include "experiments/seeds/seeds_command.h"

namespace posbias::cli {

void register_seeds(CLI::App& app, Action* selected) {
  auto options = std::make_shared<SeedsFlags>();
  CLI::App* cmd = app.add_subcommand(
      "seeds",
      "Summarize one experiment over its training seeds, as means with 95% Student-t intervals. "
      "A text experiment: the `posbias birth --run` results of each seed (and optionally each "
      "seed's `posbias eval --run`) give per-step statistics of the middle-to-ends ratio (the "
      "ends: position 0 and the query), dead-zone depth, the shares of primacy, middle, recency "
      "and query with the U test, attention entropy and gradient per position, their change "
      "from the first to the last step, and held-out bits per byte and loss per position. "
      "Hop runs (Number, Letter; no birth files): each seed's training summary.json and "
      "metrics.jsonl, `eval --run`, `heads --run` and `discrepancy --run` results give the "
      "crossing steps, held-out accuracy per hop during training, accuracy per length and hop "
      "against chance, head scores, the step each head's label settles and the labels under "
      "other thresholds, and the key heads' gaps against length. Kv runs (--eval alone): "
      "each seed's `posbias eval --run` result gives the accuracy per depth and length, the U "
      "verdict over seeds and the effective length per seed. With --compare: configurations "
      "of a hop task (ablations) side by side, each over its seeds.");
  SeedsFlags& o = *options;
  add_path_option(cmd, "birth", o.birth,
                  "text: birth --run --json results, one per training seed, two or more");
  add_path_option(cmd, "--eval", o.eval,
                  "eval --run --json results, one per seed in the same order (text runs or hop "
                  "runs)");
  add_path_option(cmd, "--summary", o.summary,
                  "hop runs: each seed's RUN_DIR/summary.json from `posbias train`");
  add_path_option(cmd, "--metrics", o.metrics,
                  "hop runs: each seed's RUN_DIR/metrics.jsonl, with --summary of the same runs");
  add_path_option(cmd, "--heads", o.heads, "hop runs: heads --run --json results, one per seed");
  add_path_option(cmd, "--discrepancy", o.discrepancy,
                  "hop runs: discrepancy --run --json results, one per seed");
  cmd->add_option("--compare", o.compare,
                  "hop runs: configurations side by side, each LABEL=EVAL.json,EVAL.json,... "
                  "(its training seeds' eval --run results; repeat for 2..32 configurations "
                  "of one task): accuracy per length and hop with intervals over each "
                  "configuration's seeds, against chance; alone, without the other inputs")
      ->take_all()
      ->type_name("LABEL=PATHS");
  add_output_option(cmd, "--json", o.json, "result file (default: stdout)");
  add_output_option(
      cmd, "--csv", o.csv,
      "text: one row per step with the shape statistics; hop runs: one row per "
      "length and hop of the eval accuracy (without --eval: the crossing steps; "
      "with --compare: per configuration too); kv runs: one row per depth and length");
  add_output_option(
      cmd, "--plot", o.plot,
      "figure stem: STEM_shape, STEM_profiles, STEM_gradient, STEM_loss (text); "
      "STEM_training, STEM_eval, STEM_heads, STEM_discrepancy (hop runs, from the files "
      "given); STEM_compare (--compare); STEM_heatmap, STEM_depth (kv runs)");
  cmd->callback(
      [options, selected] { *selected = [options] { run_seeds(seeds_mode(*options)); }; });
}

}  // namespace posbias::cli
