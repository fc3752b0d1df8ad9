#!/usr/bin/env python3
"""The paired summary and figure of the middle-weighted loss on kv (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, mw3, mw1; `posbias eval` on the runs of
scripts/mitigations-middle-weight-data.sh, base the same command without --middle-weight), pairs
each λ with base for every seed that has both, and writes DIR/summary.json: per variant and
length each seed's depth-averaged exact match (mean_accuracy) and exact match at the middle depth
(depth 50); per λ and length the paired difference λ - base, its mean and 95% Student-t interval
(3 or more seeds); the verdicts of the plan written before the runs (the middle depth judged at
the training length and at 2x: helps when the interval lies above 0, hurts below, no effect when
it holds 0; no verdict with fewer than 3 seeds or a baseline that did not learn kv); reported,
not judged: the ends (depths 0 and 100) at the training length, each eval's U verdict and
effective length, and training seconds per step, with their paired differences where numeric.
Then the figure FIG.png and .svg (paired_eval.figure): the depth-averaged exact match against
length, and the exact match by depth at the training length.

Usage: mitigations-middle-weight-summary.py DIR FIGURE_STEM
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import figure, interval, load_evals, paired, verdict  # noqa: E402

REMEDIES = ["mw3", "mw1"]
LABELS = {"base": "no middle weight", "mw3": "--middle-weight 3", "mw1": "--middle-weight 1"}


def load(path):
    with open(path) as f:
        return json.load(f)


def seeds_of(folder, variant):
    """The seeds with both the variant's eval and the baseline's."""
    return sorted(s for s in range(100) if all(os.path.exists(f"{folder}/s{s}-{v}-eval.json")
                                                for v in ("base", variant)))


def reported(folder, evals, seeds, variant, train_length):
    """The quantities the plan reports without a verdict, per seed and paired."""
    L = str(train_length)
    out = {}
    for depth in ("0", "100"):
        values = {v: [evals[(s, v)]["depth_accuracy"][L][depth]["accuracy"] for s in seeds]
                  for v in ("base", variant)}
        out[f"depth{depth}_accuracy.{L}"] = {
            **values, "difference": interval([a - b for a, b in zip(values[variant],
                                                                    values["base"])])}
    per_step = {v: [load(f"{folder}/s{s}-{v}-summary.json")["train_seconds"] /
                    load(f"{folder}/s{s}-{v}-summary.json")["steps"] for s in seeds]
                for v in ("base", variant)}
    out["seconds_per_step"] = {**per_step, "difference": interval(
        [a - b for a, b in zip(per_step[variant], per_step["base"])])}
    out["u_verdict"] = {v: [{L: u["verdict"] for L, u in evals[(s, v)]["u_verdict"]["by_length"]
                             .items()} for s in seeds] for v in ("base", variant)}
    out["effective_length"] = {v: [evals[(s, v)]["effective_length"] for s in seeds]
                               for v in ("base", variant)}
    return out


def summarize(folder, variant, seeds):
    evals = load_evals(folder, seeds, ["base", variant])
    lengths, train_length, by_variant, differences, at_training, learned = paired(
        evals, seeds, ["base", variant])
    verdicts = {}
    for factor in (1, 2):
        L = str(train_length * factor)
        verdicts[L] = {"middle_accuracy": verdict(differences[variant]["middle_accuracy"][L])
                       if learned else "no verdict (not learned)"}
    return {
        "seeds": seeds,
        "training_length": train_length,
        "lengths": [int(L) for L in lengths],
        "learned": {"rule": "every seed's baseline mean_accuracy at the training length >= 0.5",
                    "baseline": at_training, "learned": learned},
        "variants": by_variant,
        "differences": differences[variant],
        "verdicts": verdicts,
        "reported": reported(folder, evals, seeds, variant, train_length),
    }, evals


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mitigations-middle-weight-summary.py DIR FIGURE_STEM")
    folder, stem = sys.argv[1], sys.argv[2]
    summary = {"rule": "paired difference variant - base per seed, mean and 95% Student-t "
                       "interval of the exact match at depth 50; judged at 1x and 2x the "
                       "training length: helps: the interval above 0, hurts: below 0, no "
                       "effect: it holds 0",
               "remedies": {}}
    drawn = None
    for variant in REMEDIES:
        seeds = seeds_of(folder, variant)
        if not seeds:
            continue
        summary["remedies"][variant], evals = summarize(folder, variant, seeds)
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
        figure(stem, "kv, qwen2 4x64, L = 32, middle-weighted depths", evals, seeds, by_variant,
               variants, LABELS, variants, depth_factor=1)


if __name__ == "__main__":
    main()
