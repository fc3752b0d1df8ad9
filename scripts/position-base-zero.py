#!/usr/bin/env python3
"""Moves result files written while posbias printed 1-based positions to its one base, 0.

Every position posbias prints or takes is a 0-based token index (docs/conventions.md). Files
written before that (without "position_base") are still read by posbias, which moves their
positions on read; this script rewrites them in place so that the files themselves, and the
numbers the docs quote from them, are 0-based:

  scripts/position-base-zero.py FILE_OR_FOLDER...   (folders: every .json and .csv below)

JSON results (`birth`, `birth --run`, `seeds` over them, `theory --summary`, `theory shares`,
answer influence, `theory compare`, `theory fit`): the position fields drop by one, the file
gains "position_base": 0 where posbias writes it, and texts that name positions are rewritten
as posbias now writes them. The edit is made on the text, line by line, so every other byte
stays as it was. CSV profiles (a first column `position` starting at 1) drop by one. A file
that already has "position_base", or a CSV that starts at 0, is left alone; running the script
twice changes nothing.
"""
import json
import re
import sys
from pathlib import Path

# A line of an indented JSON dump: optional key, then a value or an opening bracket.
LINE = re.compile(r'^(\s*)(?:"((?:[^"\\]|\\.)*)": )?(.*?)(,?)$')

# Texts that name positions, as posbias now writes them.
TEXTS = [
    ("the middle fifth of 1..L-1 holds", "the middle fifth of 0..L-2 holds"),
    ("alpha and gain fitted by least squares on log10 over positions 1..L-1; the last position",
     "alpha and gain fitted by least squares on log10 over the positions before the query; "
     "the last position"),
    ("median |log10(measured/predicted)|, unit-sum profiles, positions 1..q",
     "median |log10(measured/predicted)|, unit-sum profiles, positions 0..q-1"),
]
SPAN_TEXT = re.compile(r"\(L = (\d+): positions (\d+)\.\.(\d+)\)")


def rewrite_text(line):
    for old, new in TEXTS:
        line = line.replace(old, new)
    return SPAN_TEXT.sub(
        lambda m: f"(L = {m[1]}: positions {int(m[2]) - 1}..{int(m[3]) - 1})", line)


def kind_of(j):
    """Which result a JSON file is, and the position paths it holds (* = any key or index)."""
    if not isinstance(j, dict) or "position_base" in j:
        return None, []
    score = ["argmin_measured", "argmin_predicted", "argmin_measured_ci.*"]
    regions = "shares.regions.*.*"
    if "measurement" in j and "profile" in j:
        paths = ["measurement.query", regions]
        for part in ("nofit", "rollout", "operator_control", "nofit_variants.*"):
            paths += [f"{part}.{p}" for p in score]
        paths += ["comparison.*.heldout_argmin", "comparison.*.argmin_predicted"]
        return "birth", paths
    if "checkpoints" in j and "query" in j and "files" in j:
        return "seeds", ["query", "checkpoints.*.argmin.*", "checkpoints.*." + regions]
    if "checkpoints" in j and "query" in j and "target" in j:
        return "birth-run", ["query", "checkpoints.*.argmin", "checkpoints.*." + regions]
    if j.get("target") == "answer" and "checkpoints" in j:
        return "answer", ["checkpoints.*." + regions]
    if "runs" in j and any(isinstance(r, dict) and "shares" in r for r in j["runs"]):
        return "shares", ["runs.*." + regions]
    if "config" in j and "discrete" in j:
        return "theory", ["config.query", "discrete.dead_zone.position"]
    return "text-only", []


def matches(path, pattern):
    parts = pattern.split(".")
    return len(parts) == len(path) and all(p in ("*", k) for p, k in zip(parts, path))


def minus_one(text, keep_zero):
    if text in ("null",):
        return text
    if re.fullmatch(r"-?\d+", text):
        v = int(text)
        return text if keep_zero and v == 0 else str(v - 1)
    v = json.loads(text)  # an interval end: the reader subtracts 1.0, as here
    return json.dumps(v - 1.0)


def convert_json(path):
    text = path.read_text(encoding="utf-8")
    try:
        j = json.loads(text)
    except ValueError:
        return False
    kind, patterns = kind_of(j)
    if kind is None:
        return False
    lines = text.split("\n")
    out, stack, changed = [], [], False
    counters = []  # the next index of each open array
    for i, line in enumerate(lines):
        m = LINE.match(line)
        indent, key, value, comma = m[1], m[2], m[3], m[4]
        if value in ("}", "]"):
            stack.pop()
            counters.pop()
            out.append(line)
            continue
        if key is None and stack and counters[-1] is not None:  # an array element
            key = str(counters[-1])
            counters[-1] += 1
        here = stack + ([key] if key is not None else [])
        if value in ("{", "["):
            stack.append(key)
            counters.append(0 if value == "[" else None)
            out.append(line)
            continue
        new = value
        for p in patterns:
            if matches([k for k in here if k is not None], p):
                keep_zero = p.endswith("argmin") or p.endswith("argmin.*") or \
                    p.endswith("dead_zone.position")
                new = minus_one(value, keep_zero)
        if kind == "birth" and here == [None, "measurement", "attn_scale"]:
            line = line.replace('"attn_scale"', '"attn_init_scale"', 1)
        if new != value:
            line = f"{indent}" + (f'"{m[2]}": ' if m[2] is not None else "") + new + comma
        new_line = rewrite_text(line)
        changed |= new_line != lines[i]
        out.append(new_line)
    if kind != "text-only":
        # posbias writes an object's keys in sorted order: "position_base" goes before the
        # first top-level key that sorts after it.
        top = [(k, LINE.match(l)[2]) for k, l in enumerate(out) if LINE.match(l)[1] == "  "]
        at = next(k for k, key in top if key is not None and key > "position_base")
        out.insert(at, '  "position_base": 0,')
        changed = True
    if changed:
        path.write_text("\n".join(out), encoding="utf-8")
        json.loads(path.read_text(encoding="utf-8"))  # still JSON
    return changed


def convert_csv(path):
    text = path.read_text(encoding="utf-8")
    rows = text.split("\n")
    if not rows or not rows[0].startswith("position,") or len(rows) < 2:
        return False
    if rows[1].split(",")[0] != "1":
        return False
    out = [rows[0]]
    for row in rows[1:]:
        if row:
            first, _, rest = row.partition(",")
            row = f"{int(first) - 1},{rest}"
        out.append(row)
    path.write_text("\n".join(out), encoding="utf-8")
    return True


def main(argv):
    if not argv:
        print(__doc__.strip().split("\n\n")[2], file=sys.stderr)
        return 2
    files = []
    for a in argv:
        p = Path(a)
        if not p.exists():
            print(f"position-base-zero: {a} does not exist", file=sys.stderr)
            return 2
        files += sorted(p.rglob("*")) if p.is_dir() else [p]
    changed = 0
    for f in files:
        if f.suffix == ".json":
            changed += convert_json(f)
        elif f.suffix == ".csv":
            changed += convert_csv(f)
    print(f"position-base-zero: {changed} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
