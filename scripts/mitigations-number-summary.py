#!/usr/bin/env python3
"""The paired summary of "On Number at 850 tokens" (docs/mitigations.md): a Number remedy's
runs (DATA/seedS-eval.json, -summary.json) against the hop seeds' Number runs
(BASELINE/number-seedS-eval.json, -summary.json), paired by seed. Judged by the page's rule
(scripts/paired_eval.py: mean and 95% Student-t interval of remedy - baseline over 3 seeds;
helps above 0, hurts below, no effect when it holds 0; no verdict under 3 seeds): the all-hop
accuracy at 850 tokens and the seen_jumps control's. The direct answer: the remedy's 3-seed
mean all-hop accuracy at 850 at least 0.5. Reported, not judged: every length's all-hop
accuracy and control per seed, per hop at 850, training seconds per step. Writes
DATA/summary.json.

Usage: scripts/mitigations-number-summary.py DATA BASELINE
"""
import os
import sys

from paired_eval import interval, load_json, verdict, write_summary

JUDGED_LENGTH = "850"
REACHES = 0.5  # the direct answer's bar on the 3-seed mean at 850 tokens


def accuracy(e, L, hop="all"):
    return e["accuracy"][L][hop]


def control(e, L, hop="all"):
    return e["controls"]["seen_jumps"]["accuracy"][L][hop]


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: mitigations-number-summary.py DATA BASELINE")
    data, base = argv[1], argv[2]
    files = {"remedy": lambda s, n: f"{data}/seed{s}-{n}",
             "base": lambda s, n: f"{base}/number-seed{s}-{n}"}
    seeds = [s for s in range(100) if all(os.path.exists(f(s, "eval.json"))
                                          for f in files.values())]
    if not seeds:
        sys.exit(f"mitigations-number-summary.py: no seed has both evals in {data} and {base}")
    evals = {(s, a): load_json(f(s, "eval.json")) for s in seeds for a, f in files.items()}
    summaries = {(s, a): load_json(f(s, "summary.json")) for s in seeds for a, f in files.items()}
    lengths = [str(x) for x in evals[(seeds[0], "base")]["lengths"]]
    quantities = {"accuracy": accuracy, "seen_jumps": control}

    per_seed = {a: {q: {L: [get(evals[(s, a)], L) for s in seeds] for L in lengths}
                    for q, get in quantities.items()} for a in files}
    differences = {q: {L: interval([r - b for r, b in zip(per_seed["remedy"][q][L],
                                                          per_seed["base"][q][L])])
                       for L in lengths} for q in quantities}
    learned = per_seed["base"]["accuracy"][lengths[0]]
    judged = {q: {"difference": differences[q][JUDGED_LENGTH],
                  "verdict": verdict(differences[q][JUDGED_LENGTH])
                  if all(a >= 0.9 for a in learned) else "no verdict (not learned)"}
              for q in quantities}
    remedy_850 = interval(per_seed["remedy"]["accuracy"][JUDGED_LENGTH])
    hops = sorted(h for h in evals[(seeds[0], "base")]["accuracy"][JUDGED_LENGTH] if h != "all")
    summary = {
        "seeds": seeds,
        "remedy_config": {k: v for k, v in load_json(files["remedy"](seeds[0], "train.json"))
                          ["config"].items() if k in ("pose", "random_positions")},
        "lengths": [int(L) for L in lengths],
        "chance": {L: evals[(seeds[0], "base")]["chance"][L]["all"] for L in lengths},
        "per_seed": per_seed,
        "differences": differences,
        "judged": judged,
        "learned": {"rule": "every baseline seed's all-hop accuracy at 17 tokens >= 0.9",
                    "baseline": learned},
        "direct_answer": {
            "rule": f"the remedy's mean all-hop accuracy at {JUDGED_LENGTH} tokens over "
                    f"3 seeds >= {REACHES}",
            "mean": remedy_850,
            "reaches": len(seeds) >= 3 and remedy_850["mean"] >= REACHES},
        "per_hop_850": {a: {h: [accuracy(evals[(s, a)], JUDGED_LENGTH, h) for s in seeds]
                            for h in hops} for a in files},
        "seconds_per_step": {a: [summaries[(s, a)]["train_seconds"] / summaries[(s, a)]["steps"]
                                 for s in seeds] for a in files},
    }
    write_summary(data, summary)


if __name__ == "__main__":
    main(sys.argv)
