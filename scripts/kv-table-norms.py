#!/usr/bin/env python3
"""Sizes of a learned-position run's tables through training: for each checkpoint in
RUN/checkpoints, the median L2 norm of the position table's rows (param/wpe) and of the token
embedding's rows (param/wte.weight), their ratio, each position row's norm, and the largest
change of any table entry since step 0 (0 would mean no gradient reaches the table). Reads the
safetensors files with the standard library alone (float32 tensors).
Usage: scripts/kv-table-norms.py RUN OUT.json"""
import array
import json
import math
import pathlib
import statistics
import struct
import sys


def read_tensors(path, names):
    data = pathlib.Path(path).read_bytes()
    header_size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + header_size])
    out = {}
    for name in names:
        entry = header.get(name)
        if entry is None or entry["dtype"] != "F32":
            raise SystemExit(f"{path}: no float32 tensor {name}; is this a run with learned positions?")
        begin, end = entry["data_offsets"]
        values = array.array("f")
        values.frombytes(data[8 + header_size + begin: 8 + header_size + end])
        out[name] = (entry["shape"], values)
    return out


def row_norms(shape, values):
    rows, cols = shape
    return [math.sqrt(sum(x * x for x in values[r * cols:(r + 1) * cols])) for r in range(rows)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kv-table-norms.py RUN OUT.json")
    run, out = pathlib.Path(sys.argv[1]), sys.argv[2]
    first, steps = None, []
    for path in sorted((run / "checkpoints").glob("step_*.safetensors")):
        t = read_tensors(path, ["param/wpe", "param/wte.weight"])
        table, tokens = t["param/wpe"], t["param/wte.weight"]
        if first is None:
            first = table[1]
        positions, words = row_norms(*table), row_norms(*tokens)
        steps.append({
            "step": int(path.stem.split("_")[1]),
            "position_median_norm": statistics.median(positions),
            "token_median_norm": statistics.median(words),
            "ratio": statistics.median(positions) / statistics.median(words),
            "position_max_change_since_step_0": max(abs(a - b) for a, b in zip(table[1], first)),
            "position_norms": positions,
        })
    with open(out, "w") as f:
        f.write(json.dumps({"run": run.name, "checkpoints": steps}, indent=1) + "\n")


if __name__ == "__main__":
    main()
