#!/usr/bin/env python3
"""The paired summary and figure of attention calibration at evaluation (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: cal1, cal0.5; `posbias eval` on the retrained kv
baseline runs with --calibrate at strength 1 and 0.5) and the same runs' plain evaluation,
KV_BASELINE/sS-eval.json (the folder kv-baseline beside DIR), for the seeds given, writes
DIR/summary.json:
per variant and length each seed's depth-averaged exact match (mean_accuracy) and exact match at
the middle depth (depth 50), each seed's effective length and pooled U verdict; per calibrated
variant and length the paired difference variant - base per seed, its mean and 95% Student-t
interval (3 or more seeds; paired_eval); and the verdicts of the plan written before the runs
(strength 1, the middle depth at every length: helps when the interval lies above 0, hurts below,
no effect when it holds 0; no verdict with fewer than 3 seeds or a baseline that did not learn kv,
its depth-averaged exact match at the training length below 0.5 in some seed). Then the figure
FIG.png and .svg (paired_eval.figure): the depth-averaged exact match against length per variant
and the exact match by depth at the training length, the strengths in a sequential colour map.

Usage: mitigations-calibrate-summary.py DIR FIGURE_STEM SEED...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import (figure, judged, load_evals, paired, shared_baseline,  # noqa: E402
                         write_summary)

VARIANTS = ["base", "cal0.5", "cal1"]  # by strength: 0, 0.5, 1
LABELS = {"base": "plain (strength 0)", "cal0.5": "calibrated, strength 0.5",
          "cal1": "calibrated, strength 1"}
# Sequential (light to dark blue) for the ordered strengths.
STRENGTH_COLOURS = ["#9ecae1", "#4292c6", "#08306b"]
JUDGED = "cal1"


def summarize(evals, seeds):
    record, differences = paired(evals, seeds, VARIANTS)
    verdicts = {str(L): judged(record, differences[JUDGED]["middle_accuracy"][str(L)])
                for L in record["lengths"]}
    per_seed = {v: {"effective_length": [evals[(s, v)]["effective_length"] for s in seeds],
                    "u_verdict": [evals[(s, v)]["u_verdict"]["pooled"]["verdict"] for s in seeds]}
                for v in VARIANTS}
    return {
        **record,
        "rule": "paired difference calibrated - base per seed, mean and 95% Student-t interval; "
                "strength 1 judged on the exact match at the middle depth (50) at every length; "
                "helps: the interval above 0, hurts: below 0, no effect: it holds 0",
        "per_seed": per_seed,
        "differences": differences,
        "verdicts": {JUDGED: {"middle_accuracy": verdicts}},
    }


def main():
    folder, stem, seeds = sys.argv[1], sys.argv[2], sorted(int(s) for s in sys.argv[3:])
    evals = load_evals(folder, seeds, VARIANTS, shared_baseline(folder))
    summary = summarize(evals, seeds)
    write_summary(folder, summary)
    figure(stem, f"kv, qwen2 4x64, L = {summary['training_length']}, calibrated", evals, seeds,
           summary["variants"], VARIANTS, LABELS, VARIANTS, depth_factor=1,
           colours=STRENGTH_COLOURS)


if __name__ == "__main__":
    main()
