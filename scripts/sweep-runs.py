#!/usr/bin/env python3
"""The runs of a sweep as shell-readable lines, for the docs-data scripts: reads the JSON that
`posbias sweep status DIR --json FILE` writes and prints, for every run in index order,
"INDEX STATE DIR VALUE..." with the run's value of each OPTION given ("-" where the run has
none). Values and directories must hold no whitespace (the scripts read the fields with
`read`); one that does is refused.

Usage: scripts/sweep-runs.py STATUS.json --task --seed [OPTION ...]
"""
import json
import sys


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: sweep-runs.py STATUS.json OPTION...")
    with open(argv[1]) as f:
        status = json.load(f)
    for run in status["states"]:
        fields = [str(run["index"]), run["state"], run["dir"]]
        fields += [run["values"].get(option, "-") for option in argv[2:]]
        if any(not field or any(c.isspace() for c in field) for field in fields):
            sys.exit(f"sweep-runs.py: run {run['index']} has a value or directory with spaces")
        print(" ".join(fields))


if __name__ == "__main__":
    main(sys.argv)
