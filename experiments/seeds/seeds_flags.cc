#include "experiments/seeds/seeds_flags.h"

#include "posbias/core/flag_rows.h"

namespace posbias {

const std::vector<FieldRow<SeedsFlags>>& seeds_flag_fields() {
  using F = SeedsFlags;
  static const std::vector<FieldRow<F>> rows = {
      flagged(field("birth", &F::birth,
                    "text: birth --run --json results, one per training seed, two or more", "PATH"),
              "birth"),  // positional
      field("eval", &F::eval,
            "eval --run --json results, one per seed in the same order (text runs or hop runs)",
            "PATH"),
      field("summary", &F::summary,
            "hop runs: each seed's RUN_DIR/summary.json from `posbias train`", "PATH"),
      field("metrics", &F::metrics,
            "hop runs: each seed's RUN_DIR/metrics.jsonl, with --summary of the same runs", "PATH"),
      field("heads", &F::heads, "hop runs: heads --run --json results, one per seed", "PATH"),
      field("discrepancy", &F::discrepancy,
            "hop runs: discrepancy --run --json results, one per seed", "PATH"),
      field("compare", &F::compare,
            "hop runs: configurations side by side, each LABEL=EVAL.json,EVAL.json,... (its "
            "training seeds' eval --run results; repeat for 2..32 configurations of one task): "
            "accuracy per length and hop with intervals over each configuration's seeds, against "
            "chance; alone, without the other inputs",
            "LABEL=PATHS")};
  return rows;
}

}  // namespace posbias
