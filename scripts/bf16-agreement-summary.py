#!/usr/bin/env python3
"""bf16 against fp32, paired by seed (docs/text.md, "bf16 against fp32").

Reads, for TASK in hop and text, PRECISION in fp32 and bf16 and each seed S found in DIR:
  DIR/TASK-PRECISION-seedS-summary.json   the run's summary.json
  DIR/TASK-PRECISION-seedS-metrics.jsonl  the run's metrics.jsonl (its last line: final loss)
  DIR/TASK-PRECISION-seedS-birth.json     birth --run RUN --checkpoints last (training length)
  DIR/hop-PRECISION-seedS-birth-L64.json  the same at --length 64 (hop runs only)
and writes DIR/summary.json: per task and quantity each seed's fp32 and bf16 value, the paired
difference d = bf16 - fp32 per seed, its mean and 95% Student-t interval (3 or more seeds, as a
description), the fp32 seeds' range (max - min) and the verdict of the rule written before the
runs: agrees when |mean d| <= the fp32 range (a range of 0 needs a mean of 0); a crossing step
that is missing (never reached 0.9) counts as equal only when its pair's is missing too. A task
is accepted when every quantity agrees. A seed is used only when both of its runs have every file.

With --table LINK_PREFIX it then prints each task's table in Markdown, every number a marked link
into summary.json (LINK_PREFIX: the file's path as the page links it, e.g.
data/text/bf16-agreement/summary.json).

Usage: bf16-agreement-summary.py DIR [--table LINK_PREFIX]
"""
import json
import math
import os
import sys

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
PRECISIONS = ("fp32", "bf16")
REGIONS = ("primacy", "middle", "recency", "query")
RULE = ("d = bf16 - fp32 per seed; bf16 agrees on a quantity when |mean d| <= the fp32 seeds' range "
        "(max - min; a range of 0 needs mean d = 0); a missing crossing step (never >= 0.9) counts "
        "as equal only when its pair's is missing too; a task is accepted when every quantity "
        "agrees; the 95% Student-t interval of d is a description, not the verdict")


def load_json(path):
    with open(path) as f:
        return json.load(f)


def last_line(path):
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    return json.loads(lines[-1])


def shares(birth, region):
    """The mean over sequences of a region's share at the last checkpoint, or None."""
    share = birth["checkpoints"][-1].get("shares", {}).get(region)
    return share["mean"] if isinstance(share, dict) else None


def quantities(task):
    """Name -> (file suffix, reader) for the task's quantities, in the plan's order."""
    final_loss = ("metrics.jsonl", lambda m: m["loss"])
    if task == "hop":
        q = {
            "final_accuracy": ("summary.json", lambda s: s["metrics"]["final"]["all"]),
            "crossing_step": ("summary.json", lambda s: s["metrics"]["crossing_0.9"]["all"]),
            "final_loss": final_loss,
        }
        for r in ("primacy", "recency", "query"):
            q[f"share_L17_{r}"] = ("birth.json", lambda b, r=r: shares(b, r))
        for r in REGIONS:
            q[f"share_L64_{r}"] = ("birth-L64.json", lambda b, r=r: shares(b, r))
        return q
    q = {
        "bits_per_byte": ("summary.json", lambda s: s["heldout"]["bits_per_byte"]),
        "final_loss": final_loss,
    }
    for r in REGIONS:
        q[f"share_{r}"] = ("birth.json", lambda b, r=r: shares(b, r))
    return q


def path(folder, task, precision, seed, suffix):
    return os.path.join(folder, f"{task}-{precision}-seed{seed}-{suffix}")


def complete_seeds(folder, task):
    suffixes = {s for s, _ in quantities(task).values()}
    return sorted(s for s in range(100) if all(
        os.path.exists(path(folder, task, p, s, x)) for p in PRECISIONS for x in suffixes))


def read(folder, task, precision, seed, suffix):
    f = path(folder, task, precision, seed, suffix)
    return last_line(f) if suffix.endswith(".jsonl") else load_json(f)


def interval(values):
    n = len(values)
    mean = sum(values) / n
    if n < 3:
        return mean, None, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T975[n - 1] * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def judge(fp32, bf16):
    """The record of one quantity: values, differences, interval, range and verdict."""
    record = {"fp32": fp32, "bf16": bf16}
    pairs = list(zip(fp32, bf16))
    if any((a is None) != (b is None) for a, b in pairs):
        # Only a crossing step can be missing: one run of a seed crossed and the other did not.
        record["verdict"] = "disagrees"
        record["note"] = "one run of a seed never reached 0.9 and its pair did"
        return record
    # A seed whose two runs both never cross counts as equal (d = 0).
    d = [0.0 if a is None else b - a for a, b in pairs]
    present = [a for a in fp32 if a is not None]
    if len(present) < len(fp32):
        record["note"] = "a seed whose two runs never reached 0.9 counts as d = 0"
    mean, low, high = interval(d)
    spread = max(present) - min(present) if present else 0.0
    record.update({
        "difference": {"values": d, "mean": mean, "abs_mean": abs(mean), "low": low, "high": high},
        "fp32_range": spread,
        "verdict": "agrees" if abs(mean) <= spread else "disagrees",
    })
    if present:
        record["fp32_mean"] = sum(present) / len(present)
        record["bf16_mean"] = sum(b for b in bf16 if b is not None) / len(present)
    return record


def summarize_task(folder, task):
    seeds = complete_seeds(folder, task)
    record = {"seeds": seeds, "quantities": {}}
    if len(seeds) < 3:
        record["verdict"] = f"no verdict ({len(seeds)} complete seed pairs, the plan has 3)"
        return record
    for name, (suffix, reader) in quantities(task).items():
        values = {p: [reader(read(folder, task, p, s, suffix)) for s in seeds] for p in PRECISIONS}
        record["quantities"][name] = judge(values["fp32"], values["bf16"])
    verdicts = [q["verdict"] for q in record["quantities"].values()]
    record["agree_count"] = verdicts.count("agrees")
    record["quantity_count"] = len(verdicts)
    record["verdict"] = "accepted" if all(v == "agrees" for v in verdicts) else "not accepted"
    record["train_seconds"] = {
        p: [read(folder, task, p, s, "summary.json").get("train_seconds") for s in seeds]
        for p in PRECISIONS}
    return record


def number(x, digits=3):
    """x as the page prints it: small values in e-notation, the minus sign as U+2212."""
    if x is None:
        return "never"
    if x != 0 and abs(x) < 10 ** -digits:
        text = f"{x:.1e}"
    elif float(x).is_integer() and abs(x) >= 10:
        text = f"{x:.0f}"
    else:
        text = f"{x:.{digits}f}"
    return text.replace("-", "\u2212")


def link(value, prefix, anchor, digits=3):
    text = number(value, digits)
    return text if value is None else f"[{text}]({prefix}#{anchor})"


def table(summary, prefix):
    """Markdown rows per task: the quantity, fp32 and bf16 per seed, mean d [95% t], range."""
    lines = []
    for task in ("hop", "text"):
        t = summary[task]
        lines += [f"{task} ({t['verdict']}):", "",
                  "| quantity | fp32, seeds 0/1/2 | bf16, seeds 0/1/2 | mean d [95% t] | fp32 range "
                  "| verdict |", "|---|---|---|---|---|---|"]
        for name, q in t["quantities"].items():
            a = f"{task}.quantities.{name}"
            digits = 0 if name == "crossing_step" else 3
            cells = [name]
            for p in PRECISIONS:
                cells.append(" / ".join(link(v, prefix, f"{a}.{p}.{i}", digits)
                                        for i, v in enumerate(q[p])))
            d = q.get("difference")
            if d is None:
                cells += ["", ""]
            else:
                dd = 1 if digits == 0 else 3
                interval = "" if d["low"] is None else (
                    f" [{link(d['low'], prefix, a + '.difference.low', dd)}, "
                    f"{link(d['high'], prefix, a + '.difference.high', dd)}]")
                cells.append(link(d["mean"], prefix, a + ".difference.mean", dd) + interval)
                cells.append(link(q["fp32_range"], prefix, a + ".fp32_range", digits))
            cells.append(q["verdict"])
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv):
    with_table = len(argv) == 4 and argv[2] == "--table"
    prefix = argv[3] if with_table else None
    if with_table:
        argv = argv[:2]
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    folder = argv[1]
    summary = {"rule": RULE, "hop": summarize_task(folder, "hop"),
               "text": summarize_task(folder, "text")}
    with open(os.path.join(folder, "summary.json"), "w") as out:
        json.dump(summary, out, indent=2, sort_keys=True)
        out.write("\n")
    for task in ("hop", "text"):
        t = summary[task]
        print(f"{task}: seeds {t['seeds']}: {t['verdict']}")
        for name, q in t["quantities"].items():
            d = q.get("difference", {})
            print(f"  {name:20s} fp32 {q['fp32']} bf16 {q['bf16']} mean d {d.get('mean')} "
                  f"range {q.get('fp32_range')}: {q['verdict']}")
    if with_table:
        print(table(summary, prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
