#!/usr/bin/env python3
"""The paired summary and figure of log-n attention scaling at evaluation (docs/mitigations.md).

Reads DIR/sS-VARIANT-eval.json (VARIANT: base, logn0.2885, logn0.3607; `posbias eval` on kv
runs, the latter two with --logn-scale) for the seeds given, writes DIR/summary.json: per variant
and length, each seed's depth-averaged exact match (mean_accuracy) and exact match at the middle
depth (depth 50); per scale and length the paired difference scale - base per seed, its mean and
95% Student-t interval (3 or more seeds); and the verdicts of the plan written before the runs
(each scale judged at 2x and at 4x the training length: helps when the interval lies above 0,
hurts below, no effect when it holds 0; no verdict with fewer than 3 seeds or a baseline that
did not learn kv, its depth-averaged exact match at the training length below 0.5 in some seed).
Then a gnuplot figure FIG.png: the depth-averaged exact match against length per variant (mean
over seeds, each seed a point), and the exact match by depth at 2x.

Usage: mitigations-logn-summary.py DIR FIGURE_STEM SEED...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import QUANTITIES, load_evals, paired, verdict  # noqa: E402

VARIANTS = ["base", "logn0.2885", "logn0.3607"]
LABELS = {"base": "no scaling", "logn0.2885": "s = 0.2885 (1/ln 32)",
          "logn0.3607": "s = 0.3607 (1/ln 16)"}
COLORS = {"base": "#000000", "logn0.2885": "#1f77b4", "logn0.3607": "#d62728"}


def summarize(evals, seeds):
    lengths, train_length, by_variant, differences, at_training, learned = paired(
        evals, seeds, VARIANTS)
    verdicts = {}
    for v in VARIANTS[1:]:
        verdicts[v] = {}
        for factor in (2, 4):
            L = str(train_length * factor)
            verdicts[v][L] = {q: verdict(differences[v][q][L]) if learned
                              else "no verdict (not learned)" for q in QUANTITIES}
    return {
        "seeds": seeds,
        "training_length": train_length,
        "lengths": [int(L) for L in lengths],
        "learned": {"rule": "every seed's baseline mean_accuracy at the training length >= 0.5",
                    "baseline": at_training, "learned": learned},
        "rule": "paired difference scale - base per seed, mean and 95% Student-t interval; each "
                "scale judged at 2x and 4x the training length; helps: the interval above 0, "
                "hurts: below 0, no effect: it holds 0",
        "variants": by_variant,
        "differences": differences,
        "verdicts": verdicts,
    }


def main():
    folder, stem, seeds = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    evals = load_evals(folder, seeds, VARIANTS)
    summary = summarize(evals, seeds)
    with open(f"{folder}/summary.json", "w") as out:
        json.dump(summary, out, indent=2, sort_keys=True)
        out.write("\n")
    figure(stem, seeds, [str(x) for x in summary["lengths"]], evals, summary["variants"])


def figure(stem, seeds, lengths, evals, by_variant):
    data = f"{stem}.dat"
    two = str(2 * int(lengths[0]))
    with open(data, "w") as out:
        for v in VARIANTS:  # block per variant: length, mean, then each seed
            for L in lengths:
                cell = by_variant[v]["mean_accuracy"][L]
                out.write(f"{L} {cell['mean']} " + " ".join(str(x) for x in cell["seeds"]) + "\n")
            out.write("\n\n")
        for v in VARIANTS:  # by depth at 2x: depth, mean over seeds
            for d in evals[(seeds[0], v)]["depths"]:
                acc = [evals[(s, v)]["depth_accuracy"][two][f"{d:g}"]["accuracy"] for s in seeds]
                out.write(f"{d} {sum(acc) / len(acc)}\n")
            out.write("\n\n")
        for L in lengths:  # chance at each length
            out.write(f"{L} {1 / ((int(L) - 4) // 6)}\n")
        out.write("\n\n")
    n = len(seeds)
    lines = [
        "set terminal pngcairo size 1300,520 font 'Sans,11'",
        f"set output '{stem}.png'",
        "set multiplot layout 1,2",
        "set key top right",
        "set grid",
        "set yrange [0:1.05]",
        "set logscale x 2",
        f"set xtics ({', '.join(lengths)})",
        f"set xrange [{int(lengths[0]) * 0.85}:{int(lengths[-1]) * 1.15}]",
        "set xlabel 'context length (tokens)'",
        "set ylabel 'exact match, mean over depths'",
        f"set title 'kv, qwen2 RoPE 4x64, trained at L = {lengths[0]}: "
        f"{n} seed{'s' if n > 1 else ''}, log-n scale at evaluation only'",
    ]
    # chance: one pair of the context's n, n = (L - 4) div 6 (the kv format)
    plots = [f"'{data}' index {2 * len(VARIANTS)} using 1:2 with linespoints dt 2 lw 1.5 pt 0 "
             "lc rgb '#888888' title 'chance (1/pairs)'"]
    for i, v in enumerate(VARIANTS):
        plots.append(f"'{data}' index {i} using 1:2 with linespoints lw 2 pt 7 "
                     f"lc rgb '{COLORS[v]}' title '{LABELS[v]}'")
        for k in range(n):
            plots.append(f"'{data}' index {i} using 1:{3 + k} with points pt 6 ps 0.8 "
                         f"lc rgb '{COLORS[v]}' notitle")
    lines.append("plot " + ", \\\n  ".join(plots))
    lines += [
        "unset logscale x",
        "set xtics auto",
        "set xrange [-5:105]",
        "set yrange [0:0.3]",
        f"set arrow from -5,{1 / ((int(two) - 4) // 6)} to 105,{1 / ((int(two) - 4) // 6)} "
        "nohead dt 2 lc rgb '#888888'",
        f"set label 'chance (1/{(int(two) - 4) // 6} pairs)' at 2,{1 / ((int(two) - 4) // 6) + 0.008} "
        "tc rgb '#666666'",
        "set xlabel 'depth of the queried pair (%)'",
        "set ylabel 'exact match, mean over seeds'",
        f"set title 'at 2x the training length (L = {two}), y axis to 0.3'",
    ]
    plots = [f"'{data}' index {len(VARIANTS) + i} using 1:2 with linespoints lw 2 pt 7 "
             f"lc rgb '{COLORS[v]}' title '{LABELS[v]}'" for i, v in enumerate(VARIANTS)]
    lines.append("plot " + ", \\\n  ".join(plots))
    lines.append("unset multiplot")
    with open(f"{stem}.gp", "w") as out:
        out.write("\n".join(lines) + "\n")
    subprocess.run(["gnuplot", f"{stem}.gp"], check=True)


if __name__ == "__main__":
    main()
