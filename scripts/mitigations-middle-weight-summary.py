#!/usr/bin/env python3
"""The paired summary and figure of the middle-weighted loss on kv (docs/mitigations.md), by
kv_remedy_summary (which says what it reads and writes).

VARIANT: mw3, mw1 (`--middle-weight 3` and 1), each paired with the retrained kv baseline. The
plan's verdicts: the middle depth judged at the training length and at 2x. Reported, not
judged: the ends (depths 0 and 100) at the training length, training seconds per step (with
their paired differences), each eval's U verdict and effective length. The figure's depth panel
is at the training length.

Usage: mitigations-middle-weight-summary.py DIR FIGURE_STEM
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kv_remedy_summary import Remedy, main  # noqa: E402

MIDDLE_WEIGHT = Remedy(
    variants=["mw3", "mw1"],
    labels={"base": "no middle weight", "mw3": "--middle-weight 3", "mw1": "--middle-weight 1"},
    title="kv, qwen2 4x64, L = 32, middle-weighted depths",
    factors=(1, 2),
    quantities=("middle_accuracy",),
    reported=("ends", "seconds_per_step", "u_verdict", "effective_length"),
    rule="paired difference variant - base per seed, mean and 95% Student-t interval of the "
         "exact match at depth 50; judged at 1x and 2x the training length: helps: the interval "
         "above 0, hurts: below 0, no effect: it holds 0",
    usage="usage: mitigations-middle-weight-summary.py DIR FIGURE_STEM",
    depth_factor=1,
)

if __name__ == "__main__":
    main(MIDDLE_WEIGHT, sys.argv[1:])
