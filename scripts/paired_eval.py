"""Remedy evals paired by seed with their baseline (docs/mitigations.md), shared by the
mitigations summary scripts: where each run's files are (a baseline shared by several remedies
keeps them in a folder of its own), each seed's depth-averaged exact match (mean_accuracy) and
exact match at the middle depth (depth 50) per variant and length, the paired difference
variant - base per seed with its mean and 95% Student-t interval (3 or more seeds), the
learned check of the baseline and the verdict rule (helps when the interval lies above 0,
hurts below, no effect when it holds 0), training seconds per step; and their figure, drawn by
the rules of the project's own figures (src/core/plot.cc): distinct colours, the legend below
the axes, axes that end at the data, written as PNG and SVG.
"""
import json
import math
import os
import subprocess

# Student t quantile t(0.975, df), df = n - 1.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}

QUANTITIES = {
    "mean_accuracy": lambda e, L: e["mean_accuracy"][L],
    "middle_accuracy": lambda e, L: e["depth_accuracy"][L]["50"]["accuracy"],
}

LEARNED_RULE = "every seed's baseline mean_accuracy at the training length >= 0.5"
NOT_LEARNED = "no verdict (not learned)"


def load_json(path):
    with open(path) as f:
        return json.load(f)


def write_summary(folder, summary, indent=2, sort_keys=True):
    """DIR/summary.json."""
    with open(f"{folder}/summary.json", "w") as out:
        json.dump(summary, out, indent=indent, sort_keys=sort_keys)
        out.write("\n")


def shared_baseline(folder):
    """The folder of the retrained kv baseline the kv remedies share: kv-baseline beside DIR."""
    return os.path.join(os.path.dirname(os.path.normpath(folder)), "kv-baseline")


def run_file(folder, seed, variant, name, baseline=None):
    """A run's file NAME: BASELINE/sS-NAME for the baseline (variant "base") when it has a folder
    of its own, DIR/sS-VARIANT-NAME otherwise."""
    if variant == "base" and baseline:
        return f"{baseline}/s{seed}-{name}"
    return f"{folder}/s{seed}-{variant}-{name}"


def seeds_with(folder, variants, names=("eval.json",), baseline=None):
    """The seeds (0 to 99) for which every variant has every file named."""
    return sorted(s for s in range(100) if all(
        os.path.exists(run_file(folder, s, v, n, baseline)) for v in variants for n in names))


def load_evals(folder, seeds, variants, baseline=None):
    """Every seed's and variant's eval.json (run_file), keyed (seed, variant)."""
    return {(s, v): load_json(run_file(folder, s, v, "eval.json", baseline))
            for s in seeds for v in variants}


def against_shipped(baseline, shipped, name="shipped"):
    """The baseline's depth-averaged exact match per seed and length, the other folder's run of
    the same command (NAME: the shipped bench run, or an earlier build's baseline) and their
    difference: how far the numbers move when the same command is trained again."""
    out = {}
    for s in range(100):
        mine, theirs = f"{baseline}/s{s}-eval.json", f"{shipped}/s{s}-eval.json"
        if os.path.exists(mine) and os.path.exists(theirs):
            a, b = load_json(mine)["mean_accuracy"], load_json(theirs)["mean_accuracy"]
            out[str(s)] = {L: {"retrained": a[L], name: b[L], "difference": a[L] - b[L]}
                           for L in a}
    return out


def interval(values):
    n = len(values)
    mean = sum(values) / n
    if n < 3:
        return {"values": values, "mean": mean, "lo": None, "hi": None}
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T975[n - 1] * sd / math.sqrt(n)
    return {"values": values, "mean": mean, "lo": mean - half, "hi": mean + half}


def verdict(diff):
    if diff["lo"] is None:
        return "no verdict (fewer than 3 seeds)"
    if diff["lo"] > 0:
        return "helps"
    if diff["hi"] < 0:
        return "hurts"
    return "no effect"


def judged(record, diff):
    """The verdict on a paired difference, or none when the record's baseline did not learn."""
    return verdict(diff) if record["learned"]["learned"] else NOT_LEARNED


def paired(evals, seeds, variants):
    """(record, differences): the record (seeds, training_length, lengths, the learned check of
    the baseline, and per variant, quantity and length each seed's value and their mean) and per
    variant but the baseline, quantity and length the paired difference; variants[0] is the
    baseline."""
    base = variants[0]
    first = evals[(seeds[0], base)]
    lengths = [str(x) for x in first["lengths"]]
    train_length = first["config"]["length"]
    by_variant = {
        v: {q: {L: {"seeds": [get(evals[(s, v)], L) for s in seeds]} for L in lengths}
            for q, get in QUANTITIES.items()}
        for v in variants
    }
    for v in variants:
        for q in QUANTITIES:
            for L in lengths:
                cell = by_variant[v][q][L]
                cell["mean"] = sum(cell["seeds"]) / len(seeds)
    differences = {
        v: {q: {L: interval([a - b for a, b in zip(by_variant[v][q][L]["seeds"],
                                                    by_variant[base][q][L]["seeds"])])
                for L in lengths} for q in QUANTITIES}
        for v in variants[1:]
    }
    at_training = by_variant[base]["mean_accuracy"][str(train_length)]["seeds"]
    record = {
        "seeds": seeds,
        "training_length": train_length,
        "lengths": [int(L) for L in lengths],
        "learned": {"rule": LEARNED_RULE, "baseline": at_training,
                    "learned": all(a >= 0.5 for a in at_training)},
        "variants": by_variant,
    }
    return record, differences


def seconds_per_step(folder, seeds, variant, baseline=None):
    """Training seconds per step (summary.json) of the baseline and the variant per seed, and
    their paired difference."""
    def per_step(s, v):
        summary = load_json(run_file(folder, s, v, "summary.json", baseline))
        return summary["train_seconds"] / summary["steps"]
    values = {v: [per_step(s, v) for s in seeds] for v in ("base", variant)}
    return {**values, "difference": interval([a - b for a, b in zip(values[variant],
                                                                     values["base"])])}


# The named series' colours of the project's figures (src/core/plot.cc): distinct, none yellow;
# the baseline takes black, the chance line grey.
COLOURS = ["#000000", "#9400d3", "#009e73", "#56b4e9", "#e69f00", "#0072b2", "#e51e10",
           "#a0522d", "#ff69b4"]
CHANCE = "#808080"
# The terminals of the project's figures (src/core/plot.cc), each with its size.
PNG_TERMINAL = "pngcairo enhanced size {size} font 'Helvetica,11'"
SVG_TERMINAL = "svg enhanced size {size} font 'Helvetica,13' background rgb 'white'"


def render(stem, data, body, size):
    """STEM.png and STEM.svg from one gnuplot script: the data blocks, then the terminal and
    output, then the body; STEM.gp keeps the PNG's script."""
    def script(terminal, extension):
        return "\n".join(data + [f"set terminal {terminal.format(size=size)}",
                                 f"set output '{stem}.{extension}'"] + body) + "\n"
    with open(f"{stem}.gp", "w") as out:
        out.write(script(PNG_TERMINAL, "png"))
    subprocess.run(["gnuplot", f"{stem}.gp"], check=True)
    subprocess.run(["gnuplot"], input=script(SVG_TERMINAL, "svg"), text=True, check=True)


def data_block(name, rows):
    """A gnuplot data block NAME from rows of values (render's `data`)."""
    return [f"{name} << EOD"] + [" ".join(str(v) for v in row) for row in rows] + ["EOD"]


def figure(stem, title, evals, seeds, by_variant, variants, labels, depth_variants,
           depth_factor=2, colours=None):
    """STEM.png, STEM.svg and STEM.gp (render): left, the depth-averaged exact match against
    length per variant (mean over seeds, each seed a circle, chance 1/pairs dashed); right, the
    exact match by depth at depth_factor times the training length (2 unless given) for
    depth_variants (mean over seeds, chance dashed). A variant keeps its colour in both panels:
    COLOURS in order, or `colours` (one per variant: a sequential map for variants that are an
    ordered series)."""
    colour = {v: (colours or COLOURS)[i] for i, v in enumerate(variants)}
    first = evals[(seeds[0], variants[0])]
    lengths = [str(x) for x in first["lengths"]]
    two = str(depth_factor * int(lengths[0]))
    depths = first["depths"]
    lines = []
    block = {v: f"$v{i}" for i, v in enumerate(variants)}  # gnuplot names: no dots
    for v in variants:  # length, mean, then each seed
        lines += data_block(f"{block[v]}len", [[L, by_variant[v]["mean_accuracy"][L]["mean"]] +
                                      by_variant[v]["mean_accuracy"][L]["seeds"] for L in lengths])
    by_depth = {}
    for v in depth_variants:  # depth, mean over seeds
        by_depth[v] = [[d, sum(evals[(s, v)]["depth_accuracy"][two][f"{d:g}"]["accuracy"]
                               for s in seeds) / len(seeds)] for d in depths]
        lines += data_block(f"{block[v]}depth", by_depth[v])
    lines += data_block("$chance", [[L, 1 / first["pairs"][L]] for L in lengths])
    chance_two = 1 / first["pairs"][two]
    top = max([chance_two] + [row[1] for v in depth_variants for row in by_depth[v]])
    n = len(seeds)
    pad = (int(lengths[-1]) / int(lengths[0])) ** 0.04
    data, lines = lines, [
        "set multiplot layout 1,2",
        "set key below nobox",
        "set grid",
        "set yrange [0:1]",
        "set logscale x 2",
        # 4% of the log span beyond the first and last length: their points and labels whole
        f"set xrange [{int(lengths[0]) / pad:.6g}:{int(lengths[-1]) * pad:.6g}]",
        "set xtics (" + ", ".join(f'"{L}" {L}' for L in lengths) + ")",
        "set xlabel 'context length (tokens)'",
        "set ylabel 'exact match, mean over depths'",
        f"set title '{title}: mean of {n} seed{'s' if n > 1 else ''}, circles: each' noenhanced",
    ]
    plots = []
    for v in variants:
        plots.append(f"{block[v]}len using 1:2 with linespoints lw 2 pt 7 lc rgb '{colour[v]}' "
                     f"title '{labels[v]}' noenhanced")
        plots += [f"{block[v]}len using 1:{3 + k} with points pt 6 ps 0.8 lc rgb '{colour[v]}' "
                  "notitle" for k in range(n)]
    plots.append(f"$chance using 1:2 with lines dt 2 lw 1.5 lc rgb '{CHANCE}' "
                 "title 'chance (1/pairs)'")
    lines.append("plot " + ", \\\n  ".join(plots))
    lines += [
        "unset logscale x",
        "set xtics auto",
        f"set xrange [{depths[0]:g}:{depths[-1]:g}]",
        f"set yrange [0:{top * 1.04:.6g}]",
        "set xlabel 'depth of the queried pair (%)'",
        "set ylabel 'exact match, mean over seeds'",
        f"set title 'by depth at {depth_factor}x the training length (L = {two})' noenhanced",
    ]
    plots = [f"{block[v]}depth using 1:2 with linespoints lw 2 pt 7 lc rgb '{colour[v]}' "
             f"title '{labels[v]}' noenhanced" for v in depth_variants]
    plots.append(f"{chance_two} with lines dt 2 lw 1.5 lc rgb '{CHANCE}' "
                 f"title 'chance (1/{first['pairs'][two]} pairs)'")
    lines.append("plot " + ", \\\n  ".join(plots))
    lines.append("unset multiplot")
    render(stem, data, lines, "1300,560")
