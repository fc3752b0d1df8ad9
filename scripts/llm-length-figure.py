#!/usr/bin/env python3
"""Redraws a stored `posbias llm` length figure from its CSV, with the chance line that
`posbias llm --plot` now draws (dashed, a uniform guess among the input's candidate answers),
for results written before the JSON carried `chance`.

The figure holds what `plot_summary` (src/llm/llm_summary.cc) draws: lenient accuracy against
length (log scale), one curve per hop (hops in a sequential blue map, more hops darker), all
hops thicker (orange) with its 95% Wilson band, chance dashed (grey), the legend outside the
plot. CHANCE is the chance level by length: the SUITE-chance.json that scripts/llm-chance.sh
writes for the suite's prompts (its "all" entry per length), or one number for every length.

Usage (from the repository root):
  scripts/llm-length-figure.py docs/data/llm/number.csv number docs/data/llm/number-chance.json \
      docs/figures/llm_number_length
writes STEM.gp, STEM.png and STEM.svg (gnuplot is needed).
"""
import csv
import json
import subprocess
import sys

HOP_COLORS = ['rgb "#9ecae1"', 'rgb "#6baed6"', 'rgb "#3182bd"', 'rgb "#08519c"']  # 1..4 hops
ALL_COLOR = 'rgb "#e6550d"'
CHANCE_COLOR = 'rgb "#555555"'


def series(rows, hops):
    """(length, lenient, low, high) of one hop count's length rows, in length order."""
    out = [(int(r["length"]), float(r["lenient"]), float(r["lenient_low"]),
            float(r["lenient_high"])) for r in rows if r["group"] == "length" and r["hops"] == hops]
    return sorted(out)


def script(rows, suite, model, chance, terminal, out):
    hops = sorted({r["hops"] for r in rows if r["group"] == "length"}, key=lambda h: (h == "all", h))
    gp = [f"set terminal {terminal} size 900,540", f'set output "{out}"',
          f'set title "{suite} suite, {model}: accuracy against length"',
          'set xlabel "input length (tokens, log scale)"',
          'set ylabel "lenient accuracy (band: 95% Wilson interval, all hops)"',
          "set key outside right box opaque", "set grid", "set logscale x",
          'set format x "10^{%L}"', "set yrange [0:1.02]"]
    parts = []
    for i, h in enumerate(hops):
        pts = series(rows, h)
        gp.append(f"$s{i} << EOD")
        gp += [f"{x} {y} {lo} {hi}" for x, y, lo, hi in pts]
        gp.append("EOD")
        color = ALL_COLOR if h == "all" else HOP_COLORS[min(int(h), len(HOP_COLORS)) - 1]
        if h == "all":
            parts.append(f"$s{i} using 1:3:4 with filledcurves fs transparent solid 0.2 "
                         f"lc {color} notitle")
        title = "all hops" if h == "all" else f"{h}-hop"
        parts.append(f'$s{i} using 1:2 with linespoints lw {3 if h == "all" else 1} '
                     f'lc {color} title "{title}"')
    lengths = [x for x, *_ in series(rows, "all")]
    levels = [chance(x) for x in lengths]
    gp.append("$chance << EOD")
    gp += [f"{x} {c}" for x, c in zip(lengths, levels)]
    gp.append("EOD")
    label = f"{levels[0]:.3f}" if len(set(levels)) == 1 else "by length"
    parts.append(f'$chance using 1:2 with lines dt 2 lw 1 lc {CHANCE_COLOR} '
                 f'title "chance ({label})"')
    gp.append("plot " + ", \\\n     ".join(parts))
    return "\n".join(gp) + "\n"


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, suite, given, stem = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    try:
        level = float(given)
        chance = lambda length: level  # noqa: E731
    except ValueError:
        by_length = json.load(open(given))["chance"]
        chance = lambda length: by_length[str(length)]["all"]  # noqa: E731
    rows = [r for r in csv.DictReader(open(path)) if r["suite"] == suite]
    if not rows:
        sys.exit(f"{path} has no rows of suite '{suite}': give the suite its CSV holds")
    model = rows[0]["model"]
    with open(stem + ".gp", "w") as f:
        f.write(script(rows, suite, model, chance, "pngcairo", stem + ".png"))
    for terminal, ext in (("pngcairo", "png"), ("svg", "svg")):
        subprocess.run(["gnuplot"], input=script(rows, suite, model, chance, terminal,
                                                 f"{stem}.{ext}"), text=True, check=True)


if __name__ == "__main__":
    main()
