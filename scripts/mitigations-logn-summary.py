#!/usr/bin/env python3
"""The paired summary and figure of log-n attention scaling at evaluation (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, logn0.2885, logn0.3607; `posbias eval` on kv
runs, the latter two with --logn-scale) for the seeds given, writes DIR/summary.json: per variant
and length, each seed's depth-averaged exact match (mean_accuracy) and exact match at the middle
depth (depth 50); per scale and length the paired difference scale - base per seed, its mean and
95% Student-t interval (3 or more seeds); and the verdicts of the plan written before the runs
(each scale judged at 2x and at 4x the training length: helps when the interval lies above 0,
hurts below, no effect when it holds 0; no verdict with fewer than 3 seeds or a baseline that
did not learn kv, its depth-averaged exact match at the training length below 0.5 in some seed).
Then the figure FIG.png and .svg (paired_eval.figure): the depth-averaged exact match against
length per variant (mean over seeds, each seed a point), and the exact match by depth at 2x.

Usage: mitigations-logn-summary.py DIR FIGURE_STEM SEED...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import (QUANTITIES, figure, judged, load_evals, paired,  # noqa: E402
                         write_summary)

VARIANTS = ["base", "logn0.2885", "logn0.3607"]
LABELS = {"base": "no scaling", "logn0.2885": "s = 0.2885 (1/ln 32)",
          "logn0.3607": "s = 0.3607 (1/ln 16)"}


def summarize(evals, seeds):
    record, differences = paired(evals, seeds, VARIANTS)
    verdicts = {}
    for v in VARIANTS[1:]:
        verdicts[v] = {}
        for factor in (2, 4):
            L = str(record["training_length"] * factor)
            verdicts[v][L] = {q: judged(record, differences[v][q][L]) for q in QUANTITIES}
    return {
        **record,
        "rule": "paired difference scale - base per seed, mean and 95% Student-t interval; each "
                "scale judged at 2x and 4x the training length; helps: the interval above 0, "
                "hurts: below 0, no effect: it holds 0",
        "differences": differences,
        "verdicts": verdicts,
    }


def main():
    folder, stem, seeds = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    evals = load_evals(folder, seeds, VARIANTS)
    summary = summarize(evals, seeds)
    write_summary(folder, summary)
    figure(stem, f"kv, qwen2 4x64 trained at L = {summary['training_length']}, log-n scale at "
           "evaluation", evals, seeds, summary["variants"], VARIANTS, LABELS, VARIANTS)


if __name__ == "__main__":
    main()
