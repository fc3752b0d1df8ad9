#!/usr/bin/env python3
"""Which no-fit estimator predicts best: reads the `nofit_variants` of every birth result in
docs/data/birth, splits them into the configurations the choice was made on (the two GPT-2
shipped ones) and the held-out rest, and writes docs/data/birth/estimators.json with, per
estimator and path sum, the median |log10 error| of every run, how often it is the best, its
median and max over the held-out runs, and how many held-out runs it keeps within 0.10."""
import glob
import json
import os
import statistics

data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "data", "birth")
chosen_on = ["gpt2", "gpt2_unscaled"]
files = sorted(glob.glob(os.path.join(data, "*.json")) + glob.glob(os.path.join(data, "*", "*.json")))
runs = {}
for path in files:
    with open(path) as f:
        j = json.load(f)
    if "nofit_variants" not in j or j["measurement"]["method"] != "exact":
        continue
    name = os.path.relpath(path, data)[:-5]
    runs[name] = {f"{v['estimator']}/{v['paths']}": v["median_abs_log10_error"]
                  for v in j["nofit_variants"] if v["model"] == "theory"}
keys = sorted({k for r in runs.values() for k in r})
heldout = [n for n in runs if n not in chosen_on]
summary = {}
for k in keys:
    errs = [runs[n][k] for n in heldout if k in runs[n]]
    summary[k] = {
        "heldout_runs": len(errs),
        "heldout_best_in": sum(1 for n in heldout if min(runs[n], key=runs[n].get) == k),
        "heldout_median": statistics.median(errs),
        "heldout_max": max(errs),
        "heldout_within_0.10": sum(1 for e in errs if e <= 0.10),
        "chosen_on": {n: runs[n][k] for n in chosen_on if n in runs},
    }
out = {"statistic": "median |log10(measured/predicted)| of the theory prediction, unit-sum profiles",
       "chosen_on": chosen_on, "heldout": heldout, "summary": summary, "runs": runs}
with open(os.path.join(data, "estimators.json"), "w") as f:
    json.dump(out, f, indent=1)
for k in keys:
    s = summary[k]
    print(f"{k:22s} best in {s['heldout_best_in']:2d}/{s['heldout_runs']}  median {s['heldout_median']:.3f}"
          f"  max {s['heldout_max']:.3f}  within 0.10: {s['heldout_within_0.10']}")
