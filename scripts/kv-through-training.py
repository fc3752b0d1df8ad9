#!/usr/bin/env python3
"""Behaviour by depth through training on kv (docs/retrieval.md, "Sizing"): reads, for each run
NAME of the sizing folder, NAME-config.json and NAME-metrics.jsonl (the training run) and
NAME/eval-pairs.json and NAME/influence.json (`posbias eval --checkpoints all` and `posbias
birth --inputs kv --checkpoints all` on one depth per pair), and classifies the run by the
page's rule, fixed before the runs it judges:
  not learned        held-out exact match at the last logged step below 0.95;
  U at the end       learned, and eval says "U" at the last checkpoint;
  transient U        learned, and eval says "U" at one or more checkpoints whose depth-averaged
                     exact match is in [0.3, 0.9], not at the last;
  no U on the way    learned, and eval says "no U" at every checkpoint;
  U outside 0.3-0.9  learned, and every checkpoint with a U has a depth-averaged exact match
                     outside [0.3, 0.9] (the rule names no class for it).
At every checkpoint with a U it applies co-location's rule (that of `posbias birth --colocate`):
"same bin" when the depth with the lowest queried-pair influence share is among the depths
tied at the lowest exact match, "different bins" otherwise; and counts both per run.
Then, per depth prior, the count of learned runs with a transient U out of the learned runs,
with its Wilson 95% interval; and the positive control (depth prior `ends`): it passes when
every learned ends run has a transient U or a U at the end.
Writes OUT.json and the figure OUT.png/.svg/.gp (one panel per run: exact match by pair
against step, pairs in a sequential colour map by depth, checkpoints with a U shaded).
Usage: scripts/kv-through-training.py FOLDER OUT NAME ...
"""
import json
import math
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import data_block, load_json, render  # noqa: E402

LEARNED = 0.95
TRANSIENT_BAND = (0.3, 0.9)
Z975 = 1.959963984540054
# A sequential map for depths in order (viridis, without its pale end), first pair darkest.
DEPTH_COLOURS = ["#440154", "#31688e", "#35b779", "#b5de2b"]
U_SHADE = "#d9d9d9"


def wilson(k, n):
    if n == 0:
        return None, None
    p = k / n
    centre = (p + Z975 ** 2 / (2 * n)) / (1 + Z975 ** 2 / n)
    half = Z975 * math.sqrt(p * (1 - p) / n + Z975 ** 2 / (4 * n * n)) / (1 + Z975 ** 2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def colocation(accuracy, share):
    """Co-location's rule on one checkpoint: depths in order, accuracy and share per depth."""
    low = min(accuracy)
    tied = [i for i, a in enumerate(accuracy) if a <= low + 1e-12]
    if len(tied) == len(accuracy):
        return "no accuracy minimum", tied, None
    m = min(range(len(share)), key=lambda i: share[i])
    return ("same bin" if m in tied else "different bins"), tied, m


def checkpoints_of(folder, name):
    evals = load_json(folder / name / "eval-pairs.json")["checkpoints"]
    influence = load_json(folder / name / "influence.json")
    shares = {c["step"]: c["by_depth"] for c in influence["checkpoints"]}
    out = []
    for e in evals:
        length = str(e["lengths"][0])
        cells = e["depth_accuracy"][length]
        depths = sorted(cells, key=float)
        by_depth = shares.get(e["step"])
        if by_depth is None:
            sys.exit(f"kv-through-training: {name}: no influence at step {e['step']}")
        share_of = {str(d["depth"]): d["needle"]["mean"] for d in by_depth}
        accuracy = [cells[d]["accuracy"] for d in depths]
        share = [share_of[d] for d in depths]
        row = {"step": e["step"], "mean_accuracy": e["mean_accuracy"][length],
               "verdict": e["u_verdict"]["by_length"][length]["verdict"],
               "depths": [float(d) for d in depths], "accuracy": accuracy, "needle_share": share}
        if row["verdict"] == "U":
            verdict, tied, m = colocation(accuracy, share)
            row["colocation"] = verdict
            row["accuracy_minimum"] = [float(depths[i]) for i in tied]
            row["share_minimum"] = float(depths[m]) if m is not None else None
        out.append(row)
    return out


def classify(last_exact_match, checkpoints):
    if last_exact_match < LEARNED:
        return "not learned"
    if checkpoints[-1]["verdict"] == "U":
        return "U at the end"
    u = [c for c in checkpoints if c["verdict"] == "U"]
    if not u:
        return "no U on the way"
    lo, hi = TRANSIENT_BAND
    if any(lo <= c["mean_accuracy"] <= hi for c in u):
        return "transient U"
    return "U outside 0.3-0.9"


def run_record(folder, name):
    config = load_json(folder / f"{name}-config.json")
    rows = [json.loads(line) for line in (folder / f"{name}-metrics.jsonl").read_text().splitlines()
            if line.strip()]
    last = rows[-1]["acc"]["all"]
    checkpoints = checkpoints_of(folder, name)
    verdicts = [c["colocation"] for c in checkpoints if c["verdict"] == "U"]
    return {"arch": config["arch"], "pos": config["pos"], "depth_prior": config["depth_prior"],
            "seed": config["seed"], "last_exact_match": last, "learned": last >= LEARNED,
            "class": classify(last, checkpoints),
            "u_steps": [c["step"] for c in checkpoints if c["verdict"] == "U"],
            "u_checkpoints": len(verdicts),
            "colocation_same_bin": verdicts.count("same bin"),
            "colocation_different_bins": verdicts.count("different bins"),
            "checkpoints": checkpoints}


def summarise(runs):
    by_prior = {}
    for name, r in runs.items():
        by_prior.setdefault(r["depth_prior"], []).append(name)
    rates = {}
    for prior, names in sorted(by_prior.items()):
        learned = [n for n in names if runs[n]["learned"]]
        transient = [n for n in learned if runs[n]["class"] == "transient U"]
        low, high = wilson(len(transient), len(learned))
        rates[prior] = {"runs": names, "learned": learned, "transient_u": transient,
                        "count": len(transient), "of": len(learned), "wilson_low": low,
                        "wilson_high": high}
    ends = [n for n in by_prior.get("ends", []) if runs[n]["learned"]]
    if not ends:
        control = "no learned run"
    elif all(runs[n]["class"] in ("transient U", "U at the end") for n in ends):
        control = "passes"
    else:
        control = "fails"
    return rates, {"learned_runs": ends, "classes": [runs[n]["class"] for n in ends],
                   "verdict": control}


def draw(stem, runs):
    names = list(runs)
    cols = min(len(names), 4)
    rows = (len(names) + cols - 1) // cols
    # The key as the figure's title, above the panels: pairs by depth, and the shading.
    key = ", ".join(f"{d:g}" for d in runs[names[0]]["checkpoints"][0]["depths"])
    title = f"pairs at depth {key}% (dark to light); grey: eval says U"
    data, body = [], [f"set multiplot layout {rows},{cols} title '{title}' noenhanced",
                      "set grid", "set yrange [0:1.02]", "set key off",
                      "set style fill solid 1.0 noborder"]
    last_step = max(c["step"] for r in runs.values() for c in r["checkpoints"])
    body.append(f"set xrange [0:{last_step}]")
    for p, name in enumerate(names):
        r = runs[name]
        cps = r["checkpoints"]
        depths = cps[0]["depths"]
        data += data_block(f"$r{p}", [[c["step"]] + c["accuracy"] for c in cps])
        shade = [[s, 1.02] for s in r["u_steps"]] or [[-1000, 0]]
        data += data_block(f"$u{p}", shade)
        body += [f"set title '{name}: {r['class']}' noenhanced",
                 "set xlabel 'training step'" if p >= len(names) - cols else "unset xlabel",
                 "set ylabel 'exact match'" if p % cols == 0 else "unset ylabel"]
        plots = [f"$u{p} using 1:2:(500) with boxes lc rgb '{U_SHADE}' notitle"]
        plots += [f"$r{p} using 1:{i + 2} with lines lw 2 lc rgb '{DEPTH_COLOURS[i]}' notitle"
                  for i in range(len(depths))]
        body.append("plot " + ", \\\n  ".join(plots))
    body.append("unset multiplot")
    render(stem, data, body, f"{430 * cols},{300 * rows + 50}")


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: kv-through-training.py FOLDER OUT NAME ...")
    folder, out, names = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    runs = {name: run_record(folder, name) for name in names}
    rates, control = summarise(runs)
    rule = ("not learned: last held-out exact match < 0.95; U at the end: eval says U at the "
            "last checkpoint; transient U: U at a checkpoint with depth-averaged exact match "
            "in [0.3, 0.9], not at the last; no U on the way: no U at any checkpoint. "
            "Rate: learned runs with a transient U over learned runs, Wilson 95% interval. "
            "Positive control (depth prior ends): every learned run has a transient U or a "
            "U at the end")
    result = {"rule": rule, "runs": runs, "rate_by_depth_prior": rates,
              "positive_control": control}
    pathlib.Path(f"{out}.json").write_text(json.dumps(result, indent=1) + "\n")
    draw(out, runs)
    for name, r in runs.items():
        print(f"{name}: {r['class']} (last {r['last_exact_match']:.3f}; U at {r['u_steps']})")
    for prior, rate in rates.items():
        print(f"{prior}: transient U in {rate['count']} of {rate['of']} learned runs "
              f"(Wilson {rate['wilson_low']}, {rate['wilson_high']})")
    print(f"positive control: {control['verdict']}")


if __name__ == "__main__":
    main()
