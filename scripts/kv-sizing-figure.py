#!/usr/bin/env python3
"""The figure of a kv sizing comparison (docs/retrieval.md, "Sizing"): left, each run's held-out
exact match against the training step (its metrics.jsonl, `acc.all`); right, each run's exact
match by the queried pair's depth at the training length (its `posbias eval --depths
0,33,67,100` result, one depth per pair), with its Wilson interval and the chance level of a
guess among the pairs. Runs are categories (distinct colours, paired_eval.COLOURS in order);
the legend sits below the axes. Writes STEM.png, STEM.svg and STEM.gp.
Usage: scripts/kv-sizing-figure.py STEM TITLE LABEL=METRICS.jsonl,EVAL.json ...
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import CHANCE, COLOURS, data_block, render  # noqa: E402


def load(spec):
    label, _, files = spec.partition("=")
    metrics_path, _, eval_path = files.partition(",")
    if not label or not metrics_path or not eval_path:
        sys.exit(f"kv-sizing-figure: '{spec}' is not LABEL=METRICS.jsonl,EVAL.json")
    with open(metrics_path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    with open(eval_path) as f:
        result = json.load(f)
    length = str(result["lengths"][0])
    cells = result["depth_accuracy"][length]
    by_depth = [[float(d), c["accuracy"], c["lo"], c["hi"]]
                for d, c in sorted(cells.items(), key=lambda kv: float(kv[0]))]
    curve = [[r["step"], r["acc"]["all"]] for r in rows if r["acc"].get("all") is not None]
    return label, curve, by_depth, result["pairs"][length], length


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: kv-sizing-figure.py STEM TITLE LABEL=METRICS.jsonl,EVAL.json ...")
    stem, title, runs = sys.argv[1], sys.argv[2], [load(s) for s in sys.argv[3:]]
    if len(runs) > len(COLOURS):
        sys.exit(f"kv-sizing-figure: at most {len(COLOURS)} runs (one colour each)")
    data = []
    for i, (_, curve, by_depth, _, _) in enumerate(runs):
        data += data_block(f"$c{i}", curve) + data_block(f"$d{i}", by_depth)
    last_step = max(row[0] for _, curve, _, _, _ in runs for row in curve)
    pairs, length = runs[0][3], runs[0][4]
    body = [
        "set multiplot layout 1,2",
        "set key below nobox",
        "set grid",
        "set yrange [0:1.02]",
        f"set xrange [0:{last_step}]",
        "set xlabel 'training step'",
        f"set ylabel 'held-out exact match at L = {length}'",
        f"set title '{title}: learning' noenhanced",
        "plot " + ", \\\n  ".join(
            f"$c{i} using 1:2 with lines lw 2 lc rgb '{COLOURS[i]}' title '{label}' noenhanced"
            for i, (label, *_) in enumerate(runs)),
        "set xrange [-4:104]",
        "set xtics (" + ", ".join(f'"{d[0]:g}" {d[0]:g}' for d in runs[0][2]) + ")",
        "set xlabel 'depth of the queried pair (%), one depth per pair'",
        f"set ylabel 'exact match at the last step (L = {length})'",
        f"set title 'by depth, Wilson 95% intervals' noenhanced",
        "plot " + ", \\\n  ".join(
            [f"$d{i} using ($1+{(i - (len(runs) - 1) / 2) * 1.2:.3g}):2:3:4 with yerrorlines lw 2 "
             f"pt 7 lc rgb '{COLOURS[i]}' title '{label}' noenhanced"
             for i, (label, *_) in enumerate(runs)] +
            [f"{1 / pairs:.6g} with lines dt 2 lw 1.5 lc rgb '{CHANCE}' "
             f"title 'chance (1/{pairs} pairs)'"]),
        "unset multiplot",
    ]
    render(stem, data, body, "1300,560")


if __name__ == "__main__":
    main()
