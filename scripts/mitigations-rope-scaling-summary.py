#!/usr/bin/env python3
"""The paired summary and figure of RoPE scaling at inference (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, pi2, pi4, ntk2, ntk4; `posbias eval` on kv runs)
for the seeds given, writes DIR/summary.json: per variant and length, each seed's depth-averaged
exact match (mean_accuracy) and exact match at the middle depth (depth 50); per scaling and
length the paired difference scaling - base per seed, its mean and 95% Student-t interval (3 or
more seeds); and the verdicts of the plan written before the runs (F = 2 judged at 2x the
training length, F = 4 at 4x: helps when the interval lies above 0, hurts below, no effect when
it holds 0; no verdict with fewer than 3 seeds or a baseline that did not learn kv, its
depth-averaged exact match at the training length below 0.5 in some seed). Then a gnuplot
figure FIG.png: the depth-averaged exact match against length per variant (mean over seeds,
each seed a point), and the exact match by depth at 2x.

Usage: mitigations-rope-scaling-summary.py DIR FIGURE_STEM SEED...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import QUANTITIES, load_evals, paired, verdict  # noqa: E402

VARIANTS = ["base", "pi2", "pi4", "ntk2", "ntk4"]
LABELS = {"base": "no scaling", "pi2": "pi:2", "pi4": "pi:4", "ntk2": "ntk:2", "ntk4": "ntk:4"}


def main():
    folder, stem, seeds = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    evals = load_evals(folder, seeds, VARIANTS)
    lengths, train_length, by_variant, differences, at_training, learned = paired(
        evals, seeds, VARIANTS)
    verdicts = {}
    for v in VARIANTS[1:]:
        L = str(train_length * int(v[-1]))
        verdicts[v] = {"length": int(L)}
        for q in QUANTITIES:
            verdicts[v][q] = verdict(differences[v][q][L]) if learned else "no verdict (not learned)"
    summary = {
        "seeds": seeds,
        "training_length": train_length,
        "lengths": [int(L) for L in lengths],
        "learned": {"rule": "every seed's baseline mean_accuracy at the training length >= 0.5",
                    "baseline": at_training, "learned": learned},
        "rule": "paired difference scaling - base per seed, mean and 95% Student-t interval; "
                "F = 2 judged at 2x the training length, F = 4 at 4x; helps: the interval above "
                "0, hurts: below 0, no effect: it holds 0",
        "variants": by_variant,
        "differences": differences,
        "verdicts": verdicts,
    }
    with open(f"{folder}/summary.json", "w") as out:
        json.dump(summary, out, indent=2, sort_keys=True)
        out.write("\n")
    figure(folder, stem, seeds, lengths, evals, by_variant)


def figure(folder, stem, seeds, lengths, evals, by_variant):
    colors = {"base": "#000000", "pi2": "#1f77b4", "pi4": "#6baed6", "ntk2": "#d62728", "ntk4": "#ff9896"}
    blocks = []  # one datablock per variant: length, mean, then each seed
    for v in VARIANTS:
        rows = [f"{L} {by_variant[v]['mean_accuracy'][L]['mean']} " +
                " ".join(str(x) for x in by_variant[v]["mean_accuracy"][L]["seeds"]) for L in lengths]
        blocks.append((f"$len_{v}", rows))
    pairs = evals[(seeds[0], "base")]["pairs"]
    blocks.append(("$chance", [f"{L} {1 / pairs[L]}" for L in lengths]))
    two = str(2 * int(lengths[0]))
    for v in ["base", "pi2", "ntk2"]:  # by depth at 2x: depth, mean over seeds
        rows = []
        for d in evals[(seeds[0], v)]["depths"]:
            acc = [evals[(s, v)]["depth_accuracy"][two][f"{d:g}"]["accuracy"] for s in seeds]
            rows.append(f"{d} {sum(acc) / len(acc)}")
        blocks.append((f"$depth_{v}", rows))
    n = len(seeds)
    lines = []
    for name, rows in blocks:
        lines += [f"{name} << EOD"] + rows + ["EOD"]
    lines += [
        "set terminal pngcairo size 1300,520 font 'Sans,11'",
        f"set output '{stem}.png'",
        "set multiplot layout 1,2",
        "set key top right",
        "set grid",
        "set yrange [0:1.05]",
        "set logscale x 2",
        f"set xrange [{int(lengths[0]) * 0.85}:{int(lengths[-1]) * 1.15}]",
        "set xtics (" + ", ".join(f'"{L}" {L}' for L in lengths) + ")",
        "set xlabel 'context length (tokens)'",
        "set ylabel 'exact match, mean over depths'",
        f"set title 'kv, qwen2 RoPE 4x64, trained at L = {lengths[0]}: {n} seed(s)'",
    ]
    plots = []
    for v in VARIANTS:
        plots.append(f"$len_{v} using 1:2 with linespoints lw 2 pt 7 lc rgb '{colors[v]}' "
                     f"title '{LABELS[v]} (mean; circles: seeds)'")
        for k in range(n):
            plots.append(f"$len_{v} using 1:{3 + k} with points pt 6 ps 0.8 "
                         f"lc rgb '{colors[v]}' notitle")
    plots.append("$chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#777777' title 'chance 1/n'")
    lines.append("plot " + ", \\\n  ".join(plots))
    lines += [
        "unset logscale x",
        "set xtics auto",
        "set xrange [-5:105]",
        "set yrange [0:0.3]",
        "set xlabel 'depth of the queried pair (%)'",
        "set ylabel 'exact match, mean over seeds'",
        f"set title 'by depth at 2x the training length (L = {two}); y axis to 0.3'",
    ]
    plots = [f"{1 / pairs[two]} with lines dt 2 lw 1.5 lc rgb '#777777' title 'chance 1/n'"]
    for v in ["base", "pi2", "ntk2"]:
        plots.append(f"$depth_{v} using 1:2 with linespoints lw 2 pt 7 "
                     f"lc rgb '{colors[v]}' title '{LABELS[v]}'")
    lines.append("plot " + ", \\\n  ".join(plots))
    lines.append("unset multiplot")
    with open(f"{stem}.gp", "w") as out:
        out.write("\n".join(lines) + "\n")
    subprocess.run(["gnuplot", f"{stem}.gp"], check=True)


if __name__ == "__main__":
    main()
