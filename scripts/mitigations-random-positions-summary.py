#!/usr/bin/env python3
"""The paired summary and figure of randomized positions and PoSE on kv (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, random-positions128, pose128; `posbias eval` on
the runs of scripts/mitigations-random-positions-data.sh, base the same command without an
option), pairs each remedy with base for every seed that has both, and writes DIR/summary.json:
per variant
and length each seed's depth-averaged exact match (mean_accuracy) and exact match at the middle
depth (depth 50); per variant and length the paired difference variant - base, its mean and 95%
Student-t interval (3 or more seeds); the verdicts of the plan written before the runs (both
quantities judged at 2x and 4x the training length: helps when the interval lies above 0, hurts
below, no effect when it holds 0; no verdict with fewer than 3 seeds or a baseline that did not
learn kv); reported, not judged: each seed's effective length and training seconds per step with
their paired differences, and base's depth-averaged exact match against the retrieval bench's
shipped runs of the same command (SHIPPED/sS-eval.json, not reproduced bit for bit by this
build). Then the figure FIG.png and .svg (paired_eval.figure).

Usage: mitigations-random-positions-summary.py DIR FIGURE_STEM [SHIPPED]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import QUANTITIES, figure, interval, paired, verdict  # noqa: E402

REMEDIES = ["random-positions128", "pose128"]
LABELS = {"base": "trained on ids 0..L-1",
          "random-positions128": "--random-positions 128", "pose128": "--pose 128"}


def load(path):
    with open(path) as f:
        return json.load(f)


def seeds_of(folder, variant):
    """The seeds with both the variant's eval and the baseline's."""
    return sorted(s for s in range(100) if all(os.path.exists(f"{folder}/s{s}-{v}-eval.json")
                                                for v in ("base", variant)))


def per_step(summary):
    return summary["train_seconds"] / summary["steps"]


def summarize_variant(folder, variant, seeds):
    evals = {(s, v): load(f"{folder}/s{s}-{v}-eval.json") for s in seeds for v in ("base", variant)}
    lengths, train_length, by_variant, differences, at_training, learned = paired(
        evals, seeds, ["base", variant])
    verdicts = {}
    for factor in (2, 4):
        L = str(train_length * factor)
        verdicts[L] = {q: verdict(differences[variant][q][L]) if learned
                       else "no verdict (not learned)" for q in QUANTITIES}
    effective = {v: [evals[(s, v)]["effective_length"] for s in seeds] for v in ("base", variant)}
    seconds = {"base": [per_step(load(f"{folder}/s{s}-base-summary.json")) for s in seeds],
               variant: [per_step(load(f"{folder}/s{s}-{variant}-summary.json")) for s in seeds]}
    # effective_length is null where no length reaches the eval's threshold: no difference then
    measured = all(x is not None for v in effective.values() for x in v)
    reported = {
        "effective_length": {"base": effective["base"], variant: effective[variant],
                             "difference": interval([a - b for a, b in zip(
                                 effective[variant], effective["base"])]) if measured else None},
        "seconds_per_step": {"base": seconds["base"], variant: seconds[variant],
                             "difference": interval([a - b for a, b in
                                                     zip(seconds[variant], seconds["base"])])},
    }
    result = {
        "seeds": seeds,
        "training_length": train_length,
        "lengths": [int(L) for L in lengths],
        "learned": {"rule": "every seed's baseline mean_accuracy at the training length >= 0.5",
                    "baseline": at_training, "learned": learned},
        "variants": by_variant,
        "differences": differences[variant],
        "verdicts": verdicts,
        "reported": reported,
    }
    return result, evals


def against_shipped(folder, shipped):
    """base's depth-averaged exact match per seed and length, the shipped bench run's and their
    difference: how far the bench's numbers move when the same command is trained again."""
    out = {}
    for s in range(100):
        mine, theirs = f"{folder}/s{s}-base-eval.json", f"{shipped}/s{s}-eval.json"
        if os.path.exists(mine) and os.path.exists(theirs):
            a, b = load(mine)["mean_accuracy"], load(theirs)["mean_accuracy"]
            out[str(s)] = {L: {"retrained": a[L], "shipped": b[L], "difference": a[L] - b[L]}
                           for L in a}
    return out


def main():
    folder, stem = sys.argv[1], sys.argv[2]
    shipped = sys.argv[3] if len(sys.argv) > 3 else "docs/data/retrieval/bench/qwen2-rope"
    summary = {"shipped": shipped, "base_against_shipped": against_shipped(folder, shipped),
               "rule": "paired difference variant - base per seed, mean and 95% Student-t "
                       "interval; judged at 2x and 4x the training length: helps: the interval "
                       "above 0, hurts: below 0, no effect: it holds 0",
               "remedies": {}}
    drawn = None
    for variant in REMEDIES:
        seeds = seeds_of(folder, variant)
        if not seeds:
            continue
        summary["remedies"][variant], evals = summarize_variant(folder, variant, seeds)
        if drawn is None or seeds == drawn[0]:
            drawn = (seeds, {**(drawn[1] if drawn else {}), **evals},
                     (drawn[2] if drawn else ["base"]) + [variant])
    with open(f"{folder}/summary.json", "w") as out:
        json.dump(summary, out, indent=2, sort_keys=True)
        out.write("\n")
    if drawn:
        seeds, evals, variants = drawn
        by_variant = {}
        for v in variants[1:]:
            by_variant.update(summary["remedies"][v]["variants"])
        figure(stem, "kv, qwen2 4x64, L = 32, randomized ids",
               evals, seeds, by_variant, variants, LABELS, variants)


if __name__ == "__main__":
    main()
