"""Remedy evals paired by seed with their baseline (docs/mitigations.md), shared by the
mitigations summary scripts: each seed's depth-averaged exact match (mean_accuracy) and exact
match at the middle depth (depth 50) per variant and length, the paired difference
variant - base per seed with its mean and 95% Student-t interval (3 or more seeds), the
learned check of the baseline and the verdict rule (helps when the interval lies above 0,
hurts below, no effect when it holds 0).
"""
import json
import math

# Student t quantile t(0.975, df), df = n - 1.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}

QUANTITIES = {
    "mean_accuracy": lambda e, L: e["mean_accuracy"][L],
    "middle_accuracy": lambda e, L: e["depth_accuracy"][L]["50"]["accuracy"],
}


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


def load_evals(folder, seeds, variants):
    """DIR/sS-VARIANT-eval.json for every seed and variant, keyed (seed, variant)."""
    evals = {}
    for s in seeds:
        for v in variants:
            with open(f"{folder}/s{s}-{v}-eval.json") as f:
                evals[(s, v)] = json.load(f)
    return evals


def paired(evals, seeds, variants):
    """(lengths, training length, by_variant, differences, baseline at the training length,
    learned): variants[0] is the baseline."""
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
    learned = all(a >= 0.5 for a in at_training)
    return lengths, train_length, by_variant, differences, at_training, learned
