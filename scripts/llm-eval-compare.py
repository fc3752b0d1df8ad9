#!/usr/bin/env python3
"""Compares `posbias llm --suite kv` or `--suite passkey` (through `posbias serve`) with
`posbias eval` on the same kv or passkey run, cell by cell (length x depth): writes the cells,
the largest absolute difference of their accuracies and the cells that differ. The suite is the
one of kv and passkey that LLM.json holds.

usage: scripts/llm-eval-compare.py LLM.json EVAL.json OUT.json
"""
import json
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    llm_path, eval_path, out_path = sys.argv[1:]
    llm = json.load(open(llm_path))
    suites = [s for s in llm["suites"] if s["suite"] in ("kv", "passkey")]
    if len(suites) != 1:
        sys.exit(f"{llm_path} holds {len(suites)} kv or passkey suites; give it one")
    suite = suites[0]
    cells = json.load(open(eval_path))["depth_accuracy"]
    rows, differ, worst = [], [], 0.0
    for r in suite["by_depth"]:
        cell = cells[str(r["length"])][str(r["depth"])]
        d = abs(r["strict"] - cell["accuracy"])
        worst = max(worst, d)
        rows.append({"length": r["length"], "depth": r["depth"], "n": r["n"],
                     "llm": r["strict"], "eval": cell["accuracy"], "eval_n": cell["n"]})
        if d > 0 or r["n"] != cell["n"]:
            differ.append(rows[-1])
    out = {"llm": llm_path, "eval": eval_path, "suite": suite["suite"], "cells": len(rows),
           "prompts": sum(r["n"] for r in rows), "max_abs_difference": worst,
           "differing_cells": differ, "by_cell": rows}
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(rows)} cells, largest difference {worst}, {len(differ)} differ")


if __name__ == "__main__":
    main()
