// `posbias seeds`: one experiment summarized over its training seeds (a text experiment from
// its birth files, or hop runs from their summary, eval, heads and discrepancy files).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "experiments/seeds/seeds_command.h"
#include "experiments/seeds/seeds_flags.h"
#include "parsed_options.h"

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
  auto parsed = std::make_shared<ParsedOptions>();
  for (const FieldRow<SeedsFlags>& row : seeds_flag_fields()) {
    CLI::Option* option = parsed->add_list(
        cmd, row.flag, row.help, row.type, [&row, options](const std::vector<std::string>& values) {
          row.read(nlohmann::json(values), *options, "seeds option");
        });
    if (row.name == "compare") option->take_all();
  }
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
  cmd->callback([options, parsed, selected] {
    *selected = [options, parsed] {
      parsed->parse();
      run_seeds(seeds_mode(*options));
    };
  });
}

}  // namespace posbias::cli
