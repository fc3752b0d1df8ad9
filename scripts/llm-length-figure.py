#!/usr/bin/env python3
"""Redraws a stored `posbias llm` length figure from its CSV, with the chance line that
`posbias llm --plot` now draws (dashed, a uniform guess among the input's candidate answers),
for results written before the JSON carried `chance`; with --depth, the suite's depth figure.

The figure holds what `plot_summary` (src/llm/llm_summary.cc) draws: lenient accuracy against
length (log scale), one curve per hop (hops in a sequential blue map, more hops darker), all
hops thicker (orange) with its 95% Wilson band, chance dashed (grey), the legend outside the
plot, the x axis at the lengths measured. CHANCE is the chance level by length: the
SUITE-chance.json that scripts/llm-chance.sh writes for the suite's prompts (its "all" entry per
length), or one number for every length.

The depth figure (--depth) is a heatmap of lenient accuracy by context length and the answer's
depth, each cell printed (plot_summary draws a curve per length, which overlap when every
length is at 1.00, as Letter's are), a depth bin not measured at a length blank.

Usage (from the repository root):
  scripts/llm-length-figure.py docs/data/llm/number.csv number docs/data/llm/number-chance.json \
      docs/figures/llm_number_length
  scripts/llm-length-figure.py --depth docs/data/llm/letter.csv letter docs/figures/llm_letter_depth
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
          "set yrange [0:1.02]"]
    measured = sorted({x for h in hops for x, *_ in series(rows, h)})
    gp += [f"set xrange [{measured[0]}:{measured[-1]}]",
           "set xtics (" + ", ".join(str(x) for x in measured) + ")"]
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


def depth_script(rows, suite, terminal, out):
    """Lenient accuracy by context length (rows) and depth (columns) as a heatmap, each cell
    printed, a cell not measured blank: plot.cc's heatmap (palette, value labels; `pixels` draws
    each cell as a rectangle, so that an SVG viewer does not blur the cells into each other)."""
    cells = {(int(r["length"]), int(r["depth"])): float(r["lenient"])
             for r in rows if r["group"] == "depth"}
    lengths = sorted({n for n, _ in cells})
    depths = sorted({d for _, d in cells})
    gp = [f"set terminal {terminal} size 900,540", f'set output "{out}"',
          f"set title \"{suite} suite: accuracy against the answer's depth in the context\"",
          'set xlabel "depth of the answer (% of the context)"',
          'set ylabel "context length (tokens)"',
          "set xtics (" + ", ".join(f'"{d}" {i}' for i, d in enumerate(depths)) + ")",
          "set ytics (" + ", ".join(f'"{n}" {i}' for i, n in enumerate(lengths)) + ")",
          f"set xrange [-0.5:{len(depths) - 0.5}]", f"set yrange [-0.5:{len(lengths) - 0.5}]",
          'set cbrange [0:1]', 'set cblabel "lenient accuracy"',
          "set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')", "unset key",
          "$grid << EOD"]
    for j, n in enumerate(lengths):
        for i, d in enumerate(depths):
            value = cells.get((n, d))
            gp.append(f"{i} {j} {'NaN' if value is None else value}")
    gp += ["EOD", "plot $grid using 1:2:3 with image pixels, \\",
           "     $grid using 1:2:(valid(3) ? sprintf(\"%.2f\", $3) : \"\"):"
           "($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'"]
    return "\n".join(gp) + "\n"


def write(stem, make):
    """STEM.gp (the PNG's script), STEM.png and STEM.svg from make(terminal, out)."""
    with open(stem + ".gp", "w") as f:
        f.write(make("pngcairo", stem + ".png"))
    for terminal, ext in (("pngcairo", "png"), ("svg", "svg")):
        subprocess.run(["gnuplot"], input=make(terminal, f"{stem}.{ext}"), text=True, check=True)


def suite_rows(path, suite):
    rows = [r for r in csv.DictReader(open(path)) if r["suite"] == suite]
    if not rows:
        sys.exit(f"{path} has no rows of suite '{suite}': give the suite its CSV holds")
    return rows


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--depth":
        path, suite, stem = sys.argv[2], sys.argv[3], sys.argv[4]
        rows = suite_rows(path, suite)
        write(stem, lambda terminal, out: depth_script(rows, suite, terminal, out))
        return
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, suite, given, stem = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    try:
        level = float(given)
        chance = lambda length: level  # noqa: E731
    except ValueError:
        by_length = json.load(open(given))["chance"]
        chance = lambda length: by_length[str(length)]["all"]  # noqa: E731
    rows = suite_rows(path, suite)
    model = rows[0]["model"]
    write(stem, lambda terminal, out: script(rows, suite, model, chance, terminal, out))


if __name__ == "__main__":
    main()
