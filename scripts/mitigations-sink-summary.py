#!/usr/bin/env python3
"""The paired summary and figures of the BOS sink token (remedy 4a, docs/mitigations.md).

Birth (DIR/birth-L34.json, -L35, -L128, -L129 of scripts/mitigations-sink-data.sh birth): the
model reading W tokens against the same model reading the sink and the same W tokens (W + 1),
paired by seed. Regions over the example's own W tokens as birth defines them on W positions
(primacy its first 8, the middle fifth, recency, the query its last), in the sink profile one
position later; shares of the whole profile, the sink's (position 0) included. Per region the log10
change sink / plain per seed, its mean and 95% Student-t interval, the same change in birth's
no-fit predictions, and the plan's verdicts: the prediction holds (the interval holds the
predicted change), the direction, not the size, or fails; the middle fifth at W = 128 by the
page's rule.

Training (DIR/sS-sink-eval.json, sS-sink-influence.json, sS-sink-summary.json of the sink runs;
KV_BASELINE/sS-eval.json, sS-influence.json, sS-summary.json of the kv baseline trained again in
this session, the folder kv-baseline beside DIR), for every seed with both: exact match at the
middle depth at L = 32 paired (paired_eval), the learned check, the example's primacy share at the
first and the last checkpoint of the answer influence (log10 change, the sink run's positions 1..8
against the baseline's 0..7), the sink's share, and training seconds per step.

Writes DIR/summary.json and the figures FIG_birth.png and .svg (the mean profiles by the
example's token index, the sink at -1) and FIG_eval.png and .svg (paired_eval.figure).

Usage: mitigations-sink-summary.py DIR FIGURE_STEM
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired_eval import (COLOURS, figure, interval, judged, load_evals, load_json,  # noqa: E402
                         paired, render, run_file, seconds_per_step, seeds_with,
                         shared_baseline, verdict, write_summary)

REGIONS = ("primacy", "middle", "recency", "query")


def regions(w):
    """Birth's regions on W positions (docs/birth.md, the U by its parts), inclusive bounds."""
    out = {"primacy": (0, 7), "recency": (w - 9, w - 2), "query": (w - 1, w - 1)}
    if w >= 40:
        out["middle"] = (2 * (w - 1) // 5, 3 * (w - 1) // 5 - 1)
    return out


def shares(profile, w, offset):
    """Each region's share of the whole profile, the example's tokens from `offset`."""
    total = sum(profile)
    return {r: sum(profile[offset + a:offset + b + 1]) / total for r, (a, b) in regions(w).items()}


def prediction_verdict(diff, predicted):
    if diff["lo"] is not None and diff["lo"] <= predicted <= diff["hi"]:
        return "holds"
    if (diff["mean"] > 0) == (predicted > 0):
        return "the direction, not the size"
    return "fails"


def birth_pair(folder, w):
    plain, sink = load_json(f"{folder}/birth-L{w}.json"), load_json(f"{folder}/birth-L{w + 1}.json")
    out = {"tokens": w, "seeds": plain["seeds"], "regions": {}}
    seeds = list(zip(plain["profile_seeds"], sink["profile_seeds"]))
    predicted_plain = shares(plain["nofit"]["profile"], w, 0)
    predicted_sink = shares(sink["nofit"]["profile"], w, 1)
    for r in regions(w):
        p = [shares(a, w, 0)[r] for a, _ in seeds]
        s = [shares(b, w, 1)[r] for _, b in seeds]
        diff = interval([math.log10(b / a) for a, b in zip(p, s)])
        predicted = math.log10(predicted_sink[r] / predicted_plain[r])
        out["regions"][r] = {"plain": p, "sink": s, "plain_mean": sum(p) / len(p),
                             "sink_mean": sum(s) / len(s), "change": diff,
                             "predicted_change": predicted,
                             "prediction": prediction_verdict(diff, predicted)}
    out["sink_share"] = interval([b[0] / sum(b) for _, b in seeds])
    out["sink_share_predicted"] = sink["nofit"]["profile"][0] / sum(sink["nofit"]["profile"])
    out["plain_position0_share"] = interval([a[0] / sum(a) for a, _ in seeds])
    return out


def influence(folder, baseline, seeds):
    """The example's primacy share and the sink's share at the first and last checkpoints."""
    def checkpoint(s, v, index):
        return load_json(run_file(folder, s, v, "influence.json", baseline))["checkpoints"][index]
    out = {}
    for which, index in (("first", 0), ("last", -1)):
        base = [checkpoint(s, "base", index) for s in seeds]
        sink = [checkpoint(s, "sink", index) for s in seeds]
        p = [sum(c["profile"][0:8]) / sum(c["profile"]) for c in base]
        q = [sum(c["profile"][1:9]) / sum(c["profile"]) for c in sink]
        diff = interval([math.log10(b / a) for a, b in zip(p, q)])
        out[which] = {
            "steps": {"base": [c["step"] for c in base], "sink": [c["step"] for c in sink]},
            "primacy": {"base": p, "sink": q, "change": diff},
            "sink_share": [c["profile"][0] / sum(c["profile"]) for c in sink],
            "base_position0_share": [c["profile"][0] / sum(c["profile"]) for c in base],
            # less primacy is less bias here: helps when the change lies below 0
            "verdict": {"helps": "hurts", "hurts": "helps"}.get(verdict(diff), verdict(diff)),
        }
    return out


def training(folder, stem):
    baseline = shared_baseline(folder)
    seeds = seeds_with(folder, ["base", "sink"], ("eval.json", "influence.json"), baseline)
    if not seeds:
        return {"seeds": []}
    evals = load_evals(folder, seeds, ["base", "sink"], baseline)
    record, differences = paired(evals, seeds, ["base", "sink"])
    record.pop("lengths")  # this summary never had them
    figure(f"{stem}_eval", "kv, qwen2 RoPE, with and without --sink", evals, seeds,
           record["variants"], ["base", "sink"], {"base": "no sink", "sink": "--sink"},
           ["base", "sink"], depth_factor=1)
    return {
        **record,
        "differences": differences["sink"],
        "verdict_middle_accuracy": judged(
            record, differences["sink"]["middle_accuracy"][str(record["training_length"])]),
        "u_verdict": {v: [evals[(s, v)]["u_verdict"]["pooled"] for s in seeds]
                      for v in ("base", "sink")},
        "influence": influence(folder, baseline, seeds),
        "seconds_per_step": seconds_per_step(folder, seeds, "sink", baseline),
    }


def birth_figure(folder, stem, w):
    """Mean profiles over seeds by the example's token index (the sink at -1), measured and
    no-fit, plain and with the sink; log scale."""
    plain, sink = load_json(f"{folder}/birth-L{w}.json"), load_json(f"{folder}/birth-L{w + 1}.json")

    def norm(p):
        t = sum(p)
        return [v / t for v in p]

    series = [("plain (W tokens), measured", norm(plain["profile"]), 0, COLOURS[0], "pt 7"),
              ("plain, no-fit prediction", norm(plain["nofit"]["profile"]), 0, COLOURS[0], "dt 2"),
              ("sink + W tokens, measured", norm(sink["profile"]), -1, COLOURS[1], "pt 7"),
              ("sink + W tokens, no-fit prediction", norm(sink["nofit"]["profile"]), -1,
               COLOURS[1], "dt 2")]
    lines = []
    for i, (_, p, start, _, _) in enumerate(series):
        lines += [f"$s{i} << EOD"] + [f"{start + j} {v:.10g}" for j, v in enumerate(p)] + ["EOD"]
    values = [v for _, p, _, _, _ in series for v in p]
    data, lines = lines, [
        "set key below nobox",
        "set grid",
        "set logscale y",
        f"set xrange [-1.5:{w - 0.5}]",
        f"set yrange [{min(values) / 1.2:.6g}:{max(values) * 1.2:.6g}]",
        "set xlabel \"the example's token index (-1: the sink token)\"",
        "set ylabel 'share of the influence on the last position'",
        f"set title 'qwen2 4 x 64 at init, W = {w}: mean of {plain['seeds']} seeds' noenhanced",
    ]
    plots = []
    for i, (title, _, _, colour, style) in enumerate(series):
        kind = "linespoints lw 2 pt 7 ps 0.6" if style == "pt 7" else "lines dt 2 lw 2"
        plots.append(f"$s{i} using 1:2 with {kind} lc rgb '{colour}' title '{title}' noenhanced")
    lines.append("plot " + ", \\\n  ".join(plots))
    render(f"{stem}_birth", data, lines, "900,560")


def main():
    if len(sys.argv) != 3:
        print("usage: mitigations-sink-summary.py DIR FIGURE_STEM", file=sys.stderr)
        sys.exit(2)
    folder, stem = sys.argv[1:]
    summary = {"birth": {str(w): birth_pair(folder, w) for w in (34, 128)},
               "training": training(folder, stem)}
    summary["birth"]["verdict_middle_128"] = verdict(
        summary["birth"]["128"]["regions"]["middle"]["change"])
    birth_figure(folder, stem, 34)
    write_summary(folder, summary, indent=1, sort_keys=False)


if __name__ == "__main__":
    main()
