#!/usr/bin/env python3
"""The paired summary and figure of RoPE scaling at inference (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, pi2, pi4, ntk2, ntk4; `posbias eval` on kv runs)
for the seeds given, writes DIR/summary.json: per variant and length, each seed's depth-averaged
exact match (mean_accuracy) and exact match at the middle depth (depth 50); per scaling and
length the paired difference scaling - base per seed, its mean and 95% Student-t interval (3 or
more seeds); and the verdicts of the plan written before the runs (F = 2 judged at 2x the
training length, F = 4 at 4x: helps when the interval lies above 0, hurts below, no effect when
it holds 0; no verdict with fewer than 3 seeds or a baseline that did not learn kv, its
depth-averaged exact match at the training length below 0.5 in some seed). Then the figure
FIG.png and .svg (paired_eval.figure): the depth-averaged exact match against length per variant
(mean over seeds, each seed a point), and the exact match by depth at 2x.

Usage: mitigations-rope-scaling-summary.py DIR FIGURE_STEM SEED...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import (QUANTITIES, figure, judged, load_evals, paired,  # noqa: E402
                         write_summary)

VARIANTS = ["base", "pi2", "pi4", "ntk2", "ntk4"]
LABELS = {"base": "no scaling", "pi2": "pi:2", "pi4": "pi:4", "ntk2": "ntk:2", "ntk4": "ntk:4"}


def main():
    folder, stem, seeds = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    evals = load_evals(folder, seeds, VARIANTS)
    record, differences = paired(evals, seeds, VARIANTS)
    train_length = record["training_length"]
    verdicts = {}
    for v in VARIANTS[1:]:
        L = str(train_length * int(v[-1]))
        verdicts[v] = {"length": int(L)}
        for q in QUANTITIES:
            verdicts[v][q] = judged(record, differences[v][q][L])
    summary = {
        **record,
        "rule": "paired difference scaling - base per seed, mean and 95% Student-t interval; "
                "F = 2 judged at 2x the training length, F = 4 at 4x; helps: the interval above "
                "0, hurts: below 0, no effect: it holds 0",
        "differences": differences,
        "verdicts": verdicts,
    }
    write_summary(folder, summary)
    figure(stem, f"kv, qwen2 RoPE 4x64, trained at L = {train_length}", evals, seeds,
           record["variants"], VARIANTS, LABELS, ["base", "pi2", "ntk2"])


if __name__ == "__main__":
    main()
