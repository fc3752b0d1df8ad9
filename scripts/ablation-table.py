#!/usr/bin/env python3
"""The ablation table of docs/hops.md, as markdown rows, from the files in docs/data/hops:
the default configuration's three-seed summaries (seeds/TASK-seeds.json) and each ablation
configuration's `posbias seeds` summary (ablation/TASK-CONFIG-seeds.json) once it has one, or
else each run's summary and eval (ablation/TASK-CONFIG-seedS-{summary,eval}.json), a row per
seed. All of them are written by scripts/hops-docs-data.sh and scripts/ablation-docs-data.sh.

Every number the table prints is also written, unrounded, to ablation/table.json (one entry
per row, only what the table prints), and the table is preceded by the marker line that names that file, so the docs
check can find each printed cell in it. Letter rows carry the decoy control's decoy rate at
850 tokens (how often the decoy chain's target is picked): the mean over seeds and each seed.

Usage (from the repository root): scripts/ablation-table.py
"""
import glob
import json
import os

DATA = "docs/data/hops"
TABLE_JSON = f"{DATA}/ablation/table.json"
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


def printed(s):
    """A seeds statistic cut to what the table prints: mean, low, high."""
    return {k: s[k] for k in ("mean", "low", "high")}


def percent(rate):
    """A decoy rate (a fraction) as a percentage. Three decimals: a rate is a count over 800
    examples (200 per hop), a multiple of 0.125%, so each seed's value prints exactly."""
    return f"{100 * rate:.3f}%"


def decoy_cell(control, seed_values=None):
    """The decoy rate at 850 tokens: the mean over seeds and each seed's value."""
    if control is None or "decoy_rate" not in control:
        return "–", None
    rate = control["decoy_rate"]["850"]
    if isinstance(rate, dict):  # a `posbias seeds` statistic
        seeds = ", ".join(percent(v) for v in rate["values"])
        return f"{percent(rate['mean'])} ({seeds})", {"mean": rate["mean"],
                                                       "values": rate["values"]}
    return percent(rate), {"value": rate}


def summary_row(label, path):
    """One row (markdown, JSON entry) from a `posbias seeds` summary with --summary and --eval."""
    d = json.load(open(path))
    e = d["eval"]["accuracy"]
    crossing = interval(d["training"]["crossing_0.9"]["all"], 0)
    if d["training"]["crossing_0.9"]["all"]["mean"] is None:
        crossing = f'never (final {interval(d["training"]["final_accuracy"]["all"])})'
    cells = [interval(e[length]["all"]) for length in LENGTHS]
    cells[-1] = f"**{cells[-1]}**"
    decoy, decoy_json = decoy_cell(d["eval"].get("control"))
    entry = {"label": label, "source": os.path.relpath(path, "docs"), "seeds": d["seeds"],
             "crossing_0.9": printed(d["training"]["crossing_0.9"]["all"]),
             "final_accuracy": printed(d["training"]["final_accuracy"]["all"])
             if d["training"]["crossing_0.9"]["all"]["mean"] is None else None,
             "accuracy": {length: printed(e[length]["all"]) for length in LENGTHS},
             "chance_850": e["850"]["all"]["chance"], "decoy_rate_850": decoy_json}
    return (f"| {label} | {d['seeds']} | {crossing} | " + " | ".join(cells) +
            f" | {e['850']['all']['chance']:.3f} | {decoy} |", entry)


def run_row(label, eval_path):
    """One row (markdown, JSON entry) from one run's eval and summary."""
    ev = json.load(open(eval_path))
    sm = json.load(open(eval_path.replace("-eval.json", "-summary.json")))
    seed = eval_path.rsplit("-seed", 1)[1].split("-")[0]
    crossing = sm["metrics"]["crossing_0.9"]["all"]
    if crossing is None:
        crossing = f"never (final {sm['metrics']['final']['all']:.3f})"
    cells = [f"{ev['accuracy'][length]['all']:.3f}" for length in LENGTHS]
    cells[-1] = f"**{cells[-1]}**"
    decoy, decoy_json = decoy_cell(ev.get("controls", {}).get("decoy"))
    entry = {"label": label, "source": os.path.relpath(eval_path, "docs"), "seed": int(seed),
             "crossing_0.9": sm["metrics"]["crossing_0.9"]["all"],
             "final_accuracy": sm["metrics"]["final"]["all"],
             "accuracy": {length: ev["accuracy"][length]["all"] for length in LENGTHS},
             "chance_850": ev["chance"]["850"]["all"], "decoy_rate_850": decoy_json}
    return (f"| {label} | seed {seed} | {crossing} | " + " | ".join(cells) +
            f" | {ev['chance']['850']['all']:.3f} | {decoy} |", entry)


def rows():
    """Every row of the table as (markdown, JSON entry)."""
    for task in ["letter", "number"]:
        name = task.capitalize()
        yield summary_row(f"{name}, default (rotary 16, θ = 1e4)",
                          f"{DATA}/seeds/{task}-seeds.json")
        for config, label, tasks in CONFIGS:
            if task not in tasks:
                continue
            seeds = f"{DATA}/ablation/{task}-{config}-seeds.json"
            runs = sorted(glob.glob(f"{DATA}/ablation/{task}-{config}-seed[0-9]*-eval.json"))
            if os.path.exists(seeds):
                yield summary_row(f"{name}, {label}", seeds)
            elif runs:
                for path in runs:
                    yield run_row(f"{name}, {label}", path)
            else:
                yield (f"| {name}, {label} | 0 | not run yet | | | | | | |",
                       {"label": f"{name}, {label}", "seeds": 0})


def main():
    table = list(rows())
    with open(TABLE_JSON, "w") as f:
        json.dump({"lengths": [int(n) for n in LENGTHS], "decoy_length": 850,
                   "interval": "95% Student-t over seeds",
                   "rows": [entry for _, entry in table]}, f, indent=1)
        f.write("\n")
    print(f"<!-- measured: {os.path.relpath(TABLE_JSON, 'docs')} -->")
    print("| configuration | seeds | all hops ≥ 0.9 at step | accuracy at 17 | at 64 | at 256 "
          "| at 850 | chance at 850 | decoy picked at 850: mean (seed 0, 1, 2) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line, _ in table:
        print(line)


if __name__ == "__main__":
    main()
