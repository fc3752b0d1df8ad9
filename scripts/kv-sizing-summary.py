#!/usr/bin/env python3
"""Summarises kv sizing runs for docs/retrieval.md: for every NAME-metrics.jsonl (a kv run's
metrics.jsonl) beside NAME-config.json (its train.json config fields) in the folder, the steps
run and planned, the held-out exact match at the last logged step and its maximum over the
run, the last training loss and the wall seconds. Writes summary.json in the same folder:
"runs" (a list sorted by name) and "by_name" (the same runs keyed by name; the page's table
checks each row against its run's record there).
Usage: scripts/kv-sizing-summary.py docs/data/retrieval/sizing"""
import json
import pathlib
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kv-sizing-summary.py FOLDER")
    folder = pathlib.Path(sys.argv[1])
    runs = []
    for metrics in sorted(folder.glob("*-metrics.jsonl")):
        name = metrics.name[: -len("-metrics.jsonl")]
        config = json.loads((folder / f"{name}-config.json").read_text())
        rows = [json.loads(line) for line in metrics.read_text().splitlines() if line]
        accuracy = [r["acc"]["all"] for r in rows]
        runs.append({
            "name": name,
            "config": config,
            "steps_run": rows[-1]["step"],
            "steps_planned": config["steps"],
            "pairs_at_length": (config["length"] - 4) // 6,
            "last_exact_match": accuracy[-1],
            "max_exact_match": max(accuracy),
            "last_loss": rows[-1]["loss"],
            "train_seconds": rows[-1]["train_seconds"],
        })
    # by_name: the same runs keyed by name, so that a page's anchors do not move when a run
    # is added (runs is sorted by name).
    by_name = {run["name"]: run for run in runs}
    (folder / "summary.json").write_text(
        json.dumps({"runs": runs, "by_name": by_name}, indent=2) + "\n")


if __name__ == "__main__":
    main()
