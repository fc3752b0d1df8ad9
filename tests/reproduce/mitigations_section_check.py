#!/usr/bin/env python3
"""Checks the mitigations section of a `posbias reproduce` report (REPORT_DIR): the section and
its remedy x measurement table are there, one table row per row of mitigations/summary.json, each
row with the measurements its kind has, every number finite, each measured table cell starting
with its summary.json mean, and every figure and data file it links present and non-empty (both
figures among them). Exit 1 with one line per problem. Usage: mitigations_section_check.py DIR"""
import html
import json
import math
import re
import sys
from pathlib import Path

# The measurements each kind of row must have (summary.json keys).
NEEDED = {
    "at birth": ["birth_middle_share"],
    "trained": ["trained_first8_share", "middle_accuracy_L", "middle_accuracy_2L",
                "mean_accuracy_L", "seconds_per_step"],
    "at inference": ["middle_accuracy_L", "middle_accuracy_2L", "mean_accuracy_L"],
}
KEYS = ["birth_middle_share", "trained_first8_share", "middle_accuracy_L", "middle_accuracy_2L",
        "mean_accuracy_L", "seconds_per_step"]  # the table's measurement columns, in order


def finite(v):
    return isinstance(v, (int, float)) and math.isfinite(v)


def check(report):
    problems = []
    page = (report / "index.html").read_text()
    start = page.find('<section id="mitigations">')
    if start < 0:
        return ["no section 'mitigations' in the report"]
    section = page[start:page.index("</section>", start)]
    if "<caption>" not in section:
        problems.append("no remedy x measurement table in the mitigations section")
    rows = [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", r)]
            for r in re.findall(r"<tr>(<td>.*?)</tr>", section)]
    table = [r for r in rows if len(r) == 3 + len(KEYS) + 1]
    summary = json.loads((report / "mitigations/summary.json").read_text())
    if len(table) != len(summary["rows"]):
        problems.append(f"{len(table)} table rows, {len(summary['rows'])} in summary.json")
    kinds = {r["when"] for r in summary["rows"]}
    if kinds != set(NEEDED):
        problems.append(f"row kinds {sorted(kinds)}, expected {sorted(NEEDED)}")
    for row, cells in zip(summary["rows"], table):
        name = row["name"]
        if cells[0] != name:
            problems.append(f"table row '{cells[0]}' where summary.json has '{name}'")
        for key in NEEDED.get(row["when"], []):
            effect = row.get(key)
            if effect is None:
                problems.append(f"{name}: no {key}")
                continue
            if effect["n"] < 1 or not finite(effect["mean"]):
                problems.append(f"{name}: {key} mean {effect['mean']} over {effect['n']} seeds")
            if effect["n"] >= 2 and not (finite(effect["low"]) and finite(effect["high"])):
                problems.append(f"{name}: {key} has no finite interval over {effect['n']} seeds")
            cell = cells[3 + KEYS.index(key)]
            decimals = 4 if key == "seconds_per_step" else 3
            if finite(effect["mean"]) and not cell.startswith(f"{effect['mean']:+.{decimals}f}"):
                problems.append(f"{name}: {key} cell '{cell}', summary.json mean {effect['mean']}")
    for bad in re.findall(r"<td>[^<]*\b(?:nan|inf)\b[^<]*</td>", section, re.IGNORECASE):
        problems.append(f"a non-finite number in the mitigations table: {html.unescape(bad)}")
    links = set(re.findall(r'(?:src|href)="(mitigations/[^"]*)"', section))
    for figure in ("birth_effects", "kv_effects"):
        for ext in ("png", "svg"):
            if f"mitigations/{figure}.{ext}" not in links:
                problems.append(f"the section does not show mitigations/{figure}.{ext}")
    for link in sorted(links):
        path = report / html.unescape(link)
        if not path.is_file() or path.stat().st_size == 0:
            problems.append(f"the section links {link}, which is missing or empty")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mitigations_section_check.py REPORT_DIR")
    problems = check(Path(sys.argv[1]))
    for p in problems:
        print("mitigations section:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
