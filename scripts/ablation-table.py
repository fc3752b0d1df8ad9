#!/usr/bin/env python3
"""The ablation table of docs/hops.md, as markdown rows, from the files in docs/data/hops:
the default configuration's three-seed summaries (seeds/TASK-seeds.json) and each ablation
configuration's `posbias seeds` summary (ablation/TASK-CONFIG-seeds.json) once it has one, or
else each run's summary and eval (ablation/TASK-CONFIG-seedS-{summary,eval}.json), a row per
seed. All of them are written by scripts/hops-docs-data.sh and scripts/ablation-docs-data.sh.

Usage (from the repository root): scripts/ablation-table.py
"""
import glob
import json
import os

DATA = "docs/data/hops"
LENGTHS = ["17", "64", "256", "850"]
BOTH = ("letter", "number")
CONFIGS = [  # (name, label, the tasks it is run for)
    ("rd128", "rotary on every dim (128)", BOTH),
    ("nope", "no positional encoding", BOTH),
    ("theta1000000", "θ = 1e6 (rotary 16)", BOTH),
    ("rd64", "rotary on 64 dims", BOTH),
    ("rd32", "rotary on 32 dims", BOTH),
    ("theta100000", "θ = 1e5 (rotary 16)", BOTH),
    ("rd128-theta1000000", "rotary on every dim at θ = 1e6", ("letter",)),
]


def interval(s, decimals=3):
    """A seeds statistic as "mean [low, high]", or the mean alone without an interval."""
    if s["mean"] is None:
        return "–"
    if s["low"] is None:
        return f'{s["mean"]:.{decimals}f}'
    return f'{s["mean"]:.{decimals}f} [{s["low"]:.{decimals}f}, {s["high"]:.{decimals}f}]'


def summary_row(label, path):
    """One row from a `posbias seeds` summary with --summary and --eval."""
    d = json.load(open(path))
    e = d["eval"]["accuracy"]
    crossing = interval(d["training"]["crossing_0.9"]["all"], 0)
    if d["training"]["crossing_0.9"]["all"]["mean"] is None:
        crossing = f'never (final {interval(d["training"]["final_accuracy"]["all"])})'
    cells = [interval(e[length]["all"]) for length in LENGTHS]
    cells[-1] = f"**{cells[-1]}**"
    return f"| {label} | {d['seeds']} | {crossing} | " + " | ".join(cells) + \
        f" | {e['850']['all']['chance']:.3f} |"


def run_row(label, eval_path):
    """One row from one run's eval and summary."""
    ev = json.load(open(eval_path))
    sm = json.load(open(eval_path.replace("-eval.json", "-summary.json")))
    seed = eval_path.rsplit("-seed", 1)[1].split("-")[0]
    crossing = sm["metrics"]["crossing_0.9"]["all"]
    if crossing is None:
        crossing = f"never (final {sm['metrics']['final']['all']:.3f})"
    cells = [f"{ev['accuracy'][length]['all']:.3f}" for length in LENGTHS]
    cells[-1] = f"**{cells[-1]}**"
    return f"| {label} | seed {seed} | {crossing} | " + " | ".join(cells) + \
        f" | {ev['chance']['850']['all']:.3f} |"


def main():
    for task in ["letter", "number"]:
        name = task.capitalize()
        print(summary_row(f"{name}, default (rotary 16, θ = 1e4)",
                          f"{DATA}/seeds/{task}-seeds.json"))
        for config, label, tasks in CONFIGS:
            if task not in tasks:
                continue
            seeds = f"{DATA}/ablation/{task}-{config}-seeds.json"
            runs = sorted(glob.glob(f"{DATA}/ablation/{task}-{config}-seed[0-9]*-eval.json"))
            if os.path.exists(seeds):
                print(summary_row(f"{name}, {label}", seeds))
            elif runs:
                for path in runs:
                    print(run_row(f"{name}, {label}", path))
            else:
                print(f"| {name}, {label} | 0 | not run yet | | | | | |")


if __name__ == "__main__":
    main()
