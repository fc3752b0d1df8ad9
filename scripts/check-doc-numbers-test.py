#!/usr/bin/env python3
"""Self-test of scripts/check-doc-numbers.py: it passes a page whose marks hold and fails each
kind of wrong mark, on the fixture pages and data in tests/docs/ (and, for the size rule, on
files this test writes to a temporary folder).

Each case runs the checker as a user would (a subprocess) and compares its exit code, its
failure lines and the number of marked numbers it checked with what the case expects; the
number forms are also checked one by one against hand-computed answers.

Usage: scripts/check-doc-numbers-test.py [FIXTURES]   (default: tests/docs beside this script's
repository). Exit 0 when every case holds, 1 otherwise.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check-doc-numbers.py")

# page -> (exit code, numbers checked, [substring of each failure line, in order])
CASES = {
    "good.md": (0, 31, []),
    "bad-digit.md": (1, 1, [
        "bad-digit.md:1: 0.589 not in data/fix.json#nofit.median_abs_log10_error (nearest: 0.58791)"]),
    "bad-anchor.md": (1, 0, [
        "bad-anchor.md:1: data/fix.json#nofit.mean_abs_log10_error anchor 'nofit.mean_abs_log10_error' "
        "has no 'mean_abs_log10_error' at nofit",
        "bad-anchor.md:2: data/fix.json#decoy_rate.per_seed.3 anchor 'decoy_rate.per_seed.3' has no '3'",
        "bad-anchor.md:3: data/table.csv#acc anchor 'acc' is not a column"]),
    "bad-file.md": (1, 0, [
        "bad-file.md:1: data/missing.json#nofit no such file",
        "bad-file.md:2: data/../good.json is not under data/"]),
    "bad-table.md": (1, 4, [
        "bad-table.md:5: 0.35 not in data/table.csv (nearest: 0.3391)",
        "bad-table.md:7: the measured marker is not directly above a table"]),
    "bad-row.md": (1, 2, [
        "bad-row.md:4: the marker's {1} names cell 1, which is empty or missing in this row",
        "bad-row.md:5: 0.965 not in data/rows.json#by_name.run.b (nearest: 0.043)",
        "bad-row.md:6: data/rows.json#by_name.run-c anchor 'by_name.run-c' has no 'run-c' at by_name",
        "bad-row.md:6: data/rows.json#by_name.run-c anchor 'by_name.run-c' has no 'run-c' at by_name",
        "bad-row.md:11: the marker's {4} names cell 4, which is empty or missing in this row"]),
    "bad-label.md": (1, 0, [
        "bad-label.md:2: the text of a link to data/fix.json#decoy_rate.mean must start with its number",
        "bad-label.md:3: the number '0.004' links to {D}fix.json#decoy_rate.mean, which is not a data "
        "file"]),
    "bad-forms.md": (1, 4, [
        "bad-forms.md:1: 0.43% not in data/fix.json#decoy_rate.mean",
        "bad-forms.md:2: 10^2.60 not in data/fix.json#ratio",
        "bad-forms.md:3: 0.017 not in data/fix.json#change",
        "bad-forms.md:4: 1.3e-7 not in data/fix.json#tiny"]),
}

# (printed text, file value, does it match?): worked by hand from the rounding rule.
FORMS = [
    ("0.588", 0.58791, True), ("0.588", 0.5885001, False), ("0.589", 0.58791, False),
    ("0.59", 0.585, True), ("−0.017", -0.0171, True), ("0.017", -0.0171, False),
    ("42%", 0.4213, True), ("42%", 42.4, True), ("0.42%", 0.00423, True), ("0.42%", 0.0043, False),
    ("16,384", 16384, True), ("16384", 16384.6, False), ("65536", 65535.5, True),
    ("1.2e-7", 1.234e-7, True), ("1.2e-7", 1.26e-7, False), ("1.23 × 10^-7", 1.234e-7, True),
    ("10^2.59", 389.05, True), ("10^2.59", 2.59, True), ("10^2.60", 389.05, False),
    ("10^−1.03", 0.0933, True), ("10^−1.03", -1.0312, True), ("10⁻³", 0.00104, True),
    ("3.5%", 0.0351, True), ("15.6%", 0.1549, False), ("2.5×", 2.46, True),
]
# (text, the numbers a reader sees in it)
PARSES = [
    ("0.049 [0.039, 0.056]", [0.049, 0.039, 0.056]),
    ("0.73 / 0.34 and 1/8", [0.73, 0.34, 1, 8]),
    ("qwen2-0.5b at 4k tokens, a 1-hop chain, L16384, v1.2.3", []),
    ("at 65536. Then −0.140 ± 0.1", [65536, -0.14, 0.1]),
]


def _load_checker():
    spec = importlib.util.spec_from_file_location("check_doc_numbers", CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(cwd, *args):
    r = subprocess.run([sys.executable, CHECKER, *args], cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout.splitlines(), r.stderr


def _checked(lines):
    summary = [line for line in lines if line.startswith("check-doc-numbers: ")]
    return int(summary[-1].split()[1]) if summary else None


def check_cases(fixtures):
    errors = []
    for page, (code, checked, expected) in CASES.items():
        rc, lines, err = _run(fixtures, page)
        failures = [line for line in lines if not line.startswith("check-doc-numbers: ") and ": warning: " not in line]
        if rc != code:
            errors.append(f"{page}: exit {rc}, expected {code} ({err.strip()})")
        if _checked(lines) != checked:
            errors.append(f"{page}: {_checked(lines)} numbers checked, expected {checked}")
        if len(failures) != len(expected):
            errors.append(f"{page}: {len(failures)} failure lines, expected {len(expected)}: {failures}")
        for want, got in zip(expected, failures):
            if want not in got:
                errors.append(f"{page}: failure line '{got}' does not contain '{want}'")
    return errors


def check_forms(checker):
    errors = []
    for text, value, expected in FORMS:
        printed = checker.parse_numbers(text)
        if len(printed) != 1:
            errors.append(f"'{text}' parses as {len(printed)} numbers, expected 1")
        elif checker.matches(printed[0], value) != expected:
            errors.append(f"'{text}' against {value}: {not expected}, expected {expected}")
    for text, values in PARSES:
        got = [p.value for p in checker.parse_numbers(text)]
        if len(got) != len(values) or any(abs(a - b) > 1e-12 for a, b in zip(got, values)):
            errors.append(f"'{text}' parses as {got}, expected {values}")
    return errors


def check_sizes_and_usage():
    """Over 300 numbers warns, over 5000 fails unless anchored; a missing page is bad usage."""
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "data"))
        with open(os.path.join(tmp, "data", "mid.json"), "w") as f:
            json.dump({"profile": [i / 7 for i in range(400)]}, f)
        with open(os.path.join(tmp, "data", "big.json"), "w") as f:
            json.dump({"profile": [i / 7 for i in range(6000)], "summary": {"max": 0.1234}}, f)
        pages = {
            "warn.md": ("[0.143](data/mid.json)\n", 0, 1, 0),
            "big.md": ("[0.12](data/big.json)\n", 1, 0, 1),
            "anchored.md": ("[0.12](data/big.json#summary.max)\n", 0, 0, 0),
        }
        for name, (text, code, warnings, failures) in pages.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            rc, lines, _ = _run(tmp, name)
            got_w = sum(": warning: " in line for line in lines)
            got_f = sum(1 for line in lines if line.startswith(name) and ": warning: " not in line)
            if (rc, got_w, got_f) != (code, warnings, failures):
                errors.append(f"{name}: exit {rc}, {got_w} warnings, {got_f} failures; "
                              f"expected {code}, {warnings}, {failures}: {lines}")
        with open(os.path.join(tmp, "loose.md"), "w") as f:
            f.write("A rate of 0.42 and a marked [0.143](data/mid.json#profile.1), 3 seeds.\n")
        rc, lines, _ = _run(tmp, "--unmarked", "loose.md")
        listed = [line for line in lines if ": unmarked: " in line]
        if rc != 0 or listed != ["loose.md:1: unmarked: 0.42"]:
            errors.append(f"--unmarked lists {listed} (exit {rc}), expected only 'loose.md:1: unmarked: 0.42'")
        rc, _, err = _run(tmp, "no-such-page.md")
        if rc != 2 or "no-such-page.md" not in err:
            errors.append(f"a missing page: exit {rc}, expected 2 and a line naming it ({err.strip()})")
    return errors


def main():
    fixtures = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "docs")
    errors = check_cases(fixtures) + check_forms(_load_checker()) + check_sizes_and_usage()
    for e in errors:
        print(f"FAIL {e}")
    total = len(CASES) + len(FORMS) + len(PARSES) + 5
    print(f"check-doc-numbers-test: {total} cases, {len(errors)} failed")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
