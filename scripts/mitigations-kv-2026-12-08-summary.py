#!/usr/bin/env python3
"""The paired summary and figure of trained log-n scaling and PoSE on kv against the baseline
trained again by the same build (docs/mitigations.md, "Trained log-n and PoSE on kv"), by
kv_remedy_summary (which says what it reads and writes).

VARIANT: logn0.2885, pose128 (`--logn-scale 0.2885`, `--pose 128`), each paired with the
baseline in kv-baseline beside DIR. The plan's verdicts: the depth-averaged exact match and the
middle depth at 2x and 4x the training length; and the answer influence at the last checkpoint
at 2x (sS[-VARIANT]-influence64.json): the log10 change of the middle fifth's share, judged by
the same rule (larger is less bias), the primacy, recency and query shares' changes reported.
Reported, not judged: each seed's effective length and training seconds per step with their
paired differences; in the top level, this baseline's depth-averaged exact match against the
earlier build's kv baseline (EARLIER/sS-eval.json, default docs/data/mitigations/kv-baseline).

Usage: mitigations-kv-2026-12-08-summary.py DIR FIGURE_STEM [EARLIER]
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kv_remedy_summary import Remedy, main  # noqa: E402
from paired_eval import (QUANTITIES, against_shipped, interval, load_json, run_file,  # noqa: E402
                         seeds_with, verdict)

VARIANTS = ["logn0.2885", "pose128"]
REGIONS = ("middle", "primacy", "recency", "query")


def influence(folder, baseline, variant):
    """Each region's share at the last checkpoint per seed, both arms, and the paired log10
    change; the middle fifth's change judged."""
    names = ("eval.json", "influence64.json")
    seeds = seeds_with(folder, ["base", variant], names, baseline)
    if not seeds:
        return None
    shares = {v: [load_json(run_file(folder, s, v, "influence64.json", baseline))
                  ["checkpoints"][-1]["shares"] for s in seeds] for v in ("base", variant)}
    out = {"seeds": seeds, "length": 64}
    for region in REGIONS:
        a = [x[region]["mean"] for x in shares["base"]]
        b = [x[region]["mean"] for x in shares[variant]]
        out[region] = {"base": a, variant: b,
                       "change": interval([math.log10(y / x) for x, y in zip(a, b)])}
    out["middle"]["verdict"] = verdict(out["middle"]["change"])
    return out


def extra_fields(folder, baseline, args):
    earlier = args[0] if args else "docs/data/mitigations/kv-baseline"
    return {"earlier_baseline": earlier,
            "base_against_earlier": against_shipped(baseline, earlier, "earlier"),
            "influence64": {v: influence(folder, baseline, v) for v in VARIANTS}}


KV_2026_12_08 = Remedy(
    variants=VARIANTS,
    labels={"base": "baseline (this build)", "logn0.2885": "--logn-scale 0.2885",
            "pose128": "--pose 128"},
    title="kv, qwen2 4x64, L = 32, trained log-n and PoSE",
    factors=(2, 4),
    quantities=tuple(QUANTITIES),
    reported=("effective_length_paired", "seconds_per_step"),
    rule="paired difference variant - base per seed, mean and 95% Student-t interval; judged at "
         "2x and 4x the training length: helps: the interval above 0, hurts: below 0, no "
         "effect: it holds 0; the influence's middle fifth at 2x by the same rule on the log10 "
         "change",
    usage="usage: mitigations-kv-2026-12-08-summary.py DIR FIGURE_STEM [EARLIER]",
    extra=extra_fields,
    optional_args=1,
)

if __name__ == "__main__":
    main(KV_2026_12_08, sys.argv[1:])
