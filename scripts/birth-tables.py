#!/usr/bin/env python3
"""The numbers docs/birth.md prints from its init runs, collected unrounded into one small file,
docs/data/birth/tables.json, so that the docs check (scripts/check-doc-numbers.py) can find
every printed cell of a table under the marker that names it, and so that the ratios the text
states are computed, not typed.

Each table is a list of rows; each row names the file its values come from and carries them
under the JSON field they were read from (nothing is rounded). The derived entries say how
they are computed. It reads the files scripts/birth-docs-data.sh writes:
  birth/{gpt2,gpt2_unscaled,qwen2_rope,qwen2_none}.json  the shipped configurations
  birth/operators/*.json                                  ALiBi and the 16-key window
  birth/attn_scale/{compare_,}{gpt2,qwen2}*.json          the init-scale runs
  birth/depth/compare_{gpt2,qwen2,gpt2_unscaled,all}.json the depth tests

Usage (from the repository root): python3 scripts/birth-tables.py [--check]
  --check: write nothing; exit 1 when tables.json differs from what the run files give now.
"""
import glob
import json
import math
import sys

DATA = "docs/data/birth"
OUT = f"{DATA}/tables.json"
SHIPPED = ["gpt2", "gpt2_unscaled", "qwen2_rope", "qwen2_none"]
OPERATORS = ["gpt2_alibi", "gpt2_window16", "qwen2_alibi", "qwen2_window16"]
SCALES = ["0.25", "1", "4"]
MODELS = ["theory_fit", "theory_nofit", "rollout", "power_law", "exponential"]


def load(name):
    with open(f"{DATA}/{name}.json", encoding="utf-8") as f:
        return json.load(f)


def prediction(p):
    """The scores of one prediction (nofit, rollout or operator_control), without its profile."""
    keys = ["median_abs_log10_error", "median_abs_log10_error_ci", "max_abs_log10_error", "w1",
            "argmin_measured", "argmin_measured_ci", "argmin_predicted", "recency_ratio", "primacy_ratio"]
    return {k: p[k] for k in keys if k in p}


def shipped():
    rows = []
    for name in SHIPPED:
        run = load(name)
        rows.append({"file": f"{name}.json", "nofit": prediction(run["nofit"]),
                     "rollout": prediction(run["rollout"])})
    return rows


def comparison():
    rows = []
    for name in SHIPPED:
        by_model = {c["model"]: c for c in load(name)["comparison"]}
        rows.append({"file": f"{name}.json", **{
            m: {"heldout_median_abs_log10_error": by_model[m]["heldout_median_abs_log10_error"],
                "heldout_max_abs_log10_error": by_model[m]["heldout_max_abs_log10_error"]} for m in MODELS}})
    return rows


def operators():
    rows = []
    for name in OPERATORS:
        run = load(f"operators/{name}")
        own, causal = run["nofit"], run["operator_control"]
        rows.append({"file": f"operators/{name}.json", "nofit": prediction(own),
                     "operator_control": prediction(causal),
                     "median_ratio_causal_over_own":
                         causal["median_abs_log10_error"] / own["median_abs_log10_error"]})
    return rows


def attn_scale(family):
    compare = {r["label"]: r for r in load(f"attn_scale/compare_{family}")["runs"]}
    rows = []
    for s in SCALES:
        label = f"{family}_s{s}"
        run = load(f"attn_scale/{label}")
        c = compare[label]
        rows.append({"file": f"attn_scale/{label}.json", "attn_init_scale": run["measurement"]["attn_init_scale"],
                     "alpha_mean": c["alpha_mean"], "own_error": c["own_error"], "margin": c["margin"],
                     "primacy_ratio": run["nofit"]["primacy_ratio"],
                     "recency_ratio": run["nofit"]["recency_ratio"]})
    return rows


def depth_predicted_over_measured(family):
    """predicted / measured dead-zone depth p_min/p_1 per depth, from theory compare."""
    runs = load(f"depth/compare_{family}")["runs"]
    return [{"layers": r["layers"], "predicted_over_measured": r["dead_zone"]["predicted"] / r["dead_zone"]["measured"]}
            for r in runs]


def negative_control():
    """From depth/compare_all.json: each run's error against another prediction over its own.

    other_family: the other family's run of the same depth; nearest_own_family: the closest
    other depth of its own family (the smallest error among them)."""
    d = load("depth/compare_all")
    labels = [r["label"] for r in d["runs"]]
    errors = d["errors"]  # errors[i][j]: run i's profile against run j's prediction
    rows = []
    for i, label in enumerate(labels):
        family, h = label.rsplit("_h", 1)
        other = next(j for j, lj in enumerate(labels) if lj.rsplit("_h", 1) == [
            "qwen2" if family == "gpt2" else "gpt2", h])
        own_family = [j for j, lj in enumerate(labels) if lj.startswith(family + "_h") and j != i]
        nearest = min(errors[i][j] for j in own_family)
        rows.append({"label": label, "own": errors[i][i],
                     "other_family_over_own": errors[i][other] / errors[i][i],
                     "nearest_own_family_over_own": nearest / errors[i][i]})
    return {"rows": rows, "correct": d["correct"], "total": d["total"]}


def runs_summary():
    """Over every birth run in docs/data/birth (not the comparisons): the sum of their own
    `seconds`, and the smallest attention entropy ratio among runs with neither a window nor
    ALiBi, whose operators are not uniform by design."""
    seconds, entropy = 0.0, []
    for path in sorted(glob.glob(f"{DATA}/**/*.json", recursive=True)):
        with open(path, encoding="utf-8") as f:
            run = json.load(f)
        if not isinstance(run, dict) or "seconds" not in run or "measurement" not in run:
            continue
        seconds += run["seconds"]
        if run["measurement"].get("window", 0) == 0 and run["config"].get("position_encoding") != "alibi":
            entropy.append(run["attention_entropy_ratio"])
    return {"runs_seconds_total": seconds, "runs_minutes_total": seconds / 60,
            "attention_entropy_ratio_min_plain": min(entropy), "plain_runs": len(entropy)}


def fitted_alpha():
    """The quadrature fit's alpha with its interval, the linear fit's alpha, and the mean over
    layers of the measured alpha (nofit.alpha, the seed mean per layer), per shipped run."""
    rows = {}
    for name in SHIPPED:
        run = load(name)
        rows[name] = {"alpha": run["alpha"], "alpha_ci": run["alpha_ci"],
                      "measured_alpha_layer_mean": sum(run["nofit"]["alpha"]) / len(run["nofit"]["alpha"]),
                      "path_sums": {k: {f: v[f] for f in ("alpha", "log_r2", "w1")} for k, v in run["path_sums"].items()}}
    return rows


def main():
    neg = negative_control()
    tables = {
        "shipped": shipped(),
        "comparison": comparison(),
        "operators": operators(),
        "attn_scale_gpt2": attn_scale("gpt2"),
        "attn_scale_qwen2": attn_scale("qwen2"),
        "depth_dead_zone": {f: depth_predicted_over_measured(f) for f in ["gpt2", "qwen2"]},
        "negative_control": neg,
        "fitted_alpha": fitted_alpha(),
        "runs": runs_summary(),
        "notes": {
            "median_ratio_causal_over_own": "operator_control median / nofit median, per operator run",
            "predicted_over_measured": "dead zone p_min/p_1, predicted over measured, per depth",
            "other_family_over_own": "error against the other family's prediction at the same depth / own error",
            "nearest_own_family_over_own": "smallest error against another depth of the same family / own error",
        },
    }
    shipped_median = {r["file"][:-len(".json")]: r["nofit"]["median_abs_log10_error"] for r in tables["shipped"]}
    # A median |log10 error| e is a per-position factor 10^e; as a percentage: 10^e − 1.
    tables["shipped_median_percent"] = {f: 100 * (math.pow(10, e) - 1) for f, e in shipped_median.items()}
    text = json.dumps(tables, indent=1) + "\n"
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUT} is not what its run files give now: run python3 scripts/birth-tables.py "
                      "and check docs/birth.md (python3 scripts/check-doc-numbers.py docs/birth.md)")
                return 1
        print(f"{OUT} matches its run files")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
