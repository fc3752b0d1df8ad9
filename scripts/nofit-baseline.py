#!/usr/bin/env python3
"""The no-fit theory against a fitted 3-parameter power law, per `posbias birth` result.

For each result file: the measured seed-mean profile p_1..p_q (q = L, the query) and the
headline no-fit prediction (`nofit.profile`). The baseline is a·j^b on positions 1..L-1, fitted
by least squares of log p_j on log j over the EVEN positions, plus a free value at the query (set
to the measured p_q: that one parameter is not held out). Both predictions and the measured
profile are normalized to unit sum over 1..q and scored on the ODD positions of 1..L-1, which
the power law never saw: median and max of |log10(measured/predicted)|. The no-fit theory is
also scored on every position (as birth does). Besides: where the no-fit error is largest (a
0-based position, as posbias prints positions), the error at the query, p_1/p_mid (mid =
ceil(q/2)) and p_1 over the minimum of 1..q-1, measured and predicted. "table" holds what a docs table prints per file (the measurement's seconds and peak
RSS, the no-fit median with its seed interval and max, the jacobian estimator beside it, the
held-out scores of both, the fitted α and log R², the two first-position ratios); "results" the
rest.

Usage: scripts/nofit-baseline.py OUT.json RESULT.json...
"""
import json
import math
import os
import statistics
import sys


def unit(v):
    s = sum(v)
    return [x / s for x in v]


def log_errors(measured, predicted, positions):
    m, p = unit(measured), unit(predicted)
    return [abs(math.log10(m[j] / p[j])) for j in positions]


def power_law(profile):
    q = len(profile)
    xs = [math.log(j + 1) for j in range(q - 1) if (j + 1) % 2 == 0]
    ys = [math.log(profile[j]) for j in range(q - 1) if (j + 1) % 2 == 0]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    return [math.exp(a + b * math.log(j + 1)) for j in range(q - 1)] + [profile[-1]], a, b


def summary(errors):
    return {"median_abs_log10_error": statistics.median(errors),
            "max_abs_log10_error": max(errors)}


def first_ratios(v):
    q = len(v)
    return v[0] / v[math.ceil(q / 2) - 1], v[0] / min(v[:-1])


def score(path):
    r = json.load(open(path))
    measured, nofit = r["profile"], r["nofit"]["profile"]
    q = len(measured)
    odd = [j for j in range(q - 1) if (j + 1) % 2 == 1]
    law, a, b = power_law(measured)
    every = log_errors(measured, nofit, range(q))
    worst = max(range(q), key=lambda j: every[j])
    m_mid, m_min = first_ratios(measured)
    p_mid, p_min = first_ratios(nofit)
    jacobian = [v for v in r["nofit_variants"] if v["model"] == "theory"
                and v["estimator"] == "jacobian" and v["paths"] == r["nofit"]["paths"]]
    table = {
        "length": q,
        "seeds": len(r["profile_seeds"]),
        "seconds": r.get("seconds"),
        "peak_rss_mb": r.get("peak_rss_mb"),
        "nofit_median": every and statistics.median(every),
        "nofit_median_ci": r["nofit"].get("median_abs_log10_error_ci"),
        "nofit_max": max(every),
        "jacobian_median": jacobian[0]["median_abs_log10_error"] if jacobian else None,
        "jacobian_max": jacobian[0]["max_abs_log10_error"] if jacobian else None,
        "heldout_theory": summary(log_errors(measured, nofit, odd)),
        "heldout_power_law": summary(log_errors(measured, law, odd)),
        "fitted_alpha": r.get("alpha"),
        "fitted_log_r2": r.get("log_r2"),
        "first_mid": [m_mid, p_mid],
        "first_min": [m_min, p_min],
    }
    return table, {
        "file": os.path.relpath(path, "docs"),
        "length": q,
        "seeds": len(r["profile_seeds"]),
        "estimator": r["nofit"]["estimator"] + ", " + r["nofit"]["paths"],
        "theory_nofit_all_positions": summary(every),
        "theory_nofit_heldout": summary(log_errors(measured, nofit, odd)),
        "power_law_heldout": summary(log_errors(measured, law, odd)),
        "power_law": {"log_prefactor": a, "exponent": b},
        "theory_nofit_worst_position": worst,
        "theory_nofit_error_at_query": every[q - 1],
        "theory_nofit_largest_errors": [[j, every[j]] for j in
                                        sorted(range(q), key=lambda j: -every[j])[:12]],
        "theory_nofit_log10_measured_over_predicted_at_worst":
            math.log10(unit(measured)[worst] / unit(nofit)[worst]),
        "first_mid_ratio": {"measured": m_mid, "predicted": p_mid},
        "first_min_ratio": {"measured": m_min, "predicted": p_min},
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = {"method": "power law a*j^b in the key number j = position + 1, fitted on the even j "
                     "of 1..L-1 plus a free value at the query; scored on the odd j of 1..L-1; "
                     "unit sum over every position; positions 0-based",
           "table": {}, "results": {}}
    for p in sys.argv[2:]:
        name = os.path.splitext(os.path.basename(p))[0]
        out["table"][name], out["results"][name] = score(p)
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
