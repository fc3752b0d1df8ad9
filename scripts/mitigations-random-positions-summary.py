#!/usr/bin/env python3
"""The paired summary and figure of randomized positions and PoSE on kv (docs/mitigations.md), by
kv_remedy_summary (which says what it reads and writes).

VARIANT: random-positions128, pose128 (`--random-positions 128`, `--pose 128`), each paired with
the retrained kv baseline. The plan's verdicts: both quantities (the depth-averaged exact match
and the middle depth) judged at 2x and 4x the training length. Reported, not judged: each seed's
effective length and training seconds per step with their paired differences; and in the
summary's top level the baseline's depth-averaged exact match against the retrieval bench's
shipped runs of the same command (SHIPPED/sS-eval.json, default
docs/data/retrieval/bench/qwen2-rope; not reproduced bit for bit by this build).

Usage: mitigations-random-positions-summary.py DIR FIGURE_STEM [SHIPPED]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kv_remedy_summary import Remedy, main  # noqa: E402
from paired_eval import QUANTITIES, against_shipped  # noqa: E402


def shipped_fields(folder, baseline, args):
    shipped = args[0] if args else "docs/data/retrieval/bench/qwen2-rope"
    return {"shipped": shipped, "base_against_shipped": against_shipped(baseline, shipped)}


RANDOM_POSITIONS = Remedy(
    variants=["random-positions128", "pose128"],
    labels={"base": "trained on ids 0..L-1",
            "random-positions128": "--random-positions 128", "pose128": "--pose 128"},
    title="kv, qwen2 4x64, L = 32, randomized ids",
    factors=(2, 4),
    quantities=tuple(QUANTITIES),
    reported=("effective_length_paired", "seconds_per_step"),
    rule="paired difference variant - base per seed, mean and 95% Student-t interval; judged at "
         "2x and 4x the training length: helps: the interval above 0, hurts: below 0, no "
         "effect: it holds 0",
    usage="usage: mitigations-random-positions-summary.py DIR FIGURE_STEM [SHIPPED]",
    extra=shipped_fields,
    optional_args=1,
)

if __name__ == "__main__":
    main(RANDOM_POSITIONS, sys.argv[1:])
