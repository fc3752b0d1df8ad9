#!/usr/bin/env python3
"""Remove `max_abs_log10_error_ci` from birth result files written before birth stopped writing it.

A percentile bootstrap interval of a maximum over positions is not valid for a max (a resampled
max can exclude the max itself: gpt2.json's 0.0326 against [0.0334, 0.0540]), so birth no longer
writes it. This rewrites the given files without that key, wherever it sits, and changes nothing
else (the other fields, their order and values are kept).

usage: python3 scripts/drop-max-interval.py FILE.json...
"""
import json
import os
import sys
import tempfile


def drop(node):
    if isinstance(node, dict):
        node.pop("max_abs_log10_error_ci", None)
        for v in node.values():
            drop(v)
    elif isinstance(node, list):
        for v in node:
            drop(v)


def main(paths):
    if not paths:
        print("usage: drop-max-interval.py FILE.json...", file=sys.stderr)
        return 2
    for path in paths:
        with open(path) as f:
            text = f.read()
        if "max_abs_log10_error_ci" not in text:
            continue
        data = json.loads(text)
        drop(data)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
        print(f"{path}: max interval dropped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
