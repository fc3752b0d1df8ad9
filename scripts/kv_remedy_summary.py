"""The paired summary and figure of a kv remedy trained against the retrained kv baseline
(docs/mitigations.md), shared by the summary scripts of the trained kv remedies; each of them
holds only what is its own (a Remedy: its variants and labels, the lengths and quantities its
plan judges, what it reports, its rule and title).

Reads DIR/sS-VARIANT-eval.json and DIR/sS-VARIANT-summary.json (scripts/mitigations-kv-data.sh)
and the baseline's KV_BASELINE/sS-eval.json and sS-summary.json (the folder kv-baseline beside
DIR), pairs each variant with the baseline for every seed that has both evals, and writes
DIR/summary.json: per variant, its seeds, the training length and the lengths, the learned check
of the baseline, per variant and length each seed's depth-averaged exact match (mean_accuracy)
and exact match at the middle depth (depth 50), the paired difference variant - base with its
mean and 95% Student-t interval (3 or more seeds), the verdicts of the remedy's plan (its
quantities at its multiples of the training length: helps when the interval lies above 0, hurts
below, no effect when it holds 0; no verdict with fewer than 3 seeds or a baseline that did not
learn kv) and what the plan reports without a verdict. Then the figure FIG.png and .svg
(paired_eval.figure) of the variants with the first variant's seeds.
"""
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import (figure, interval, judged, load_evals, paired,  # noqa: E402
                         seconds_per_step, seeds_with, shared_baseline, write_summary)


@dataclass
class Remedy:
    variants: list  # each paired with "base"; a variant without a seed is left out
    labels: dict  # variant (and "base") -> the figure's legend
    title: str  # the figure's title
    factors: tuple  # the plan judges at these multiples of the training length
    quantities: tuple  # the QUANTITIES the plan judges
    reported: tuple  # names in REPORTED, in order
    rule: str  # the summary's "rule"
    usage: str
    depth_factor: int = 2  # the figure's depth panel at this multiple of the training length
    extra: object = None  # (DIR, KV_BASELINE, further arguments) -> more top-level fields
    optional_args: int = 0  # how many arguments after DIR FIGURE_STEM it takes at most


def _ends(run, variant):
    """The exact match at depths 0 and 100 at the training length, per seed and paired."""
    L = str(run["record"]["training_length"])
    out = {}
    for depth in ("0", "100"):
        values = {v: [run["evals"][(s, v)]["depth_accuracy"][L][depth]["accuracy"]
                      for s in run["seeds"]] for v in ("base", variant)}
        out[f"depth{depth}_accuracy.{L}"] = {
            **values, "difference": interval([a - b for a, b in zip(values[variant],
                                                                    values["base"])])}
    return out


def _effective_length(run, variant, paired_difference):
    values = {v: [run["evals"][(s, v)]["effective_length"] for s in run["seeds"]]
              for v in ("base", variant)}
    if not paired_difference:
        return {"effective_length": values}
    # effective_length is null where no length reaches the eval's threshold: no difference then
    measured = all(x is not None for v in values.values() for x in v)
    return {"effective_length": {**values, "difference": interval([a - b for a, b in zip(
        values[variant], values["base"])]) if measured else None}}


def _u_verdict(run, variant):
    by_length = {key: run["evals"][key]["u_verdict"]["by_length"] for key in run["evals"]}
    return {"u_verdict": {v: [{L: u["verdict"] for L, u in by_length[(s, v)].items()}
                              for s in run["seeds"]] for v in ("base", variant)}}


# What a plan reports without a verdict, by name: (run, variant) -> fields of "reported".
REPORTED = {
    "ends": _ends,
    "seconds_per_step": lambda run, v: {"seconds_per_step": seconds_per_step(
        run["folder"], run["seeds"], v, run["baseline"])},
    "u_verdict": _u_verdict,
    "effective_length": lambda run, v: _effective_length(run, v, False),
    "effective_length_paired": lambda run, v: _effective_length(run, v, True),
}


def summarize(remedy, folder, baseline, variant, seeds):
    """One variant's record against the baseline, and the evals it read."""
    evals = load_evals(folder, seeds, ["base", variant], baseline)
    record, differences = paired(evals, seeds, ["base", variant])
    verdicts = {}
    for factor in remedy.factors:
        L = str(record["training_length"] * factor)
        verdicts[L] = {q: judged(record, differences[variant][q][L]) for q in remedy.quantities}
    run = {"folder": folder, "baseline": baseline, "seeds": seeds, "evals": evals,
           "record": record}
    reported = {}
    for name in remedy.reported:
        reported.update(REPORTED[name](run, variant))
    return {**record, "differences": differences[variant], "verdicts": verdicts,
            "reported": reported}, evals


def main(remedy, argv):
    if not 2 <= len(argv) <= 2 + remedy.optional_args:
        print(remedy.usage, file=sys.stderr)
        sys.exit(2)
    folder, stem = argv[0], argv[1]
    baseline = shared_baseline(folder)
    summary = {**(remedy.extra(folder, baseline, argv[2:]) if remedy.extra else {}),
               "rule": remedy.rule, "remedies": {}}
    drawn = None
    for variant in remedy.variants:
        seeds = seeds_with(folder, ["base", variant], baseline=baseline)
        if not seeds:
            continue
        summary["remedies"][variant], evals = summarize(remedy, folder, baseline, variant, seeds)
        if drawn is None or seeds == drawn[0]:
            drawn = (seeds, {**(drawn[1] if drawn else {}), **evals},
                     (drawn[2] if drawn else ["base"]) + [variant])
    write_summary(folder, summary)
    if drawn:
        seeds, evals, variants = drawn
        by_variant = {}
        for v in variants[1:]:
            by_variant.update(summary["remedies"][v]["variants"])
        figure(stem, remedy.title, evals, seeds, by_variant, variants, remedy.labels, variants,
               depth_factor=remedy.depth_factor)
