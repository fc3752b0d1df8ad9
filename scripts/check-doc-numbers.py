#!/usr/bin/env python3
"""Checks that every number the docs mark as measured appears in the data file it names.

A number in a page is marked in one of two ways (paths are relative to the page's folder and
must lie under its data/ folder):

1. An inline link whose text starts with a number:
       median |log10 error| [0.588](data/long-context/qwen2-0.5b-L16384.json#nofit.median_abs_log10_error)
   Every number in the link text is checked (units, %, ×, ± and an interval in balanced
   brackets may follow: [0.049 [0.039, 0.056]](data/x.json#shares.middle)). The optional
   anchor names the part of the file that is searched: a dot path into JSON (array indices as
   numbers), the same into JSONL (the line index first), or a column name in a CSV file.
2. A block marker on the line directly above a table:
       <!-- measured: data/x.json data/y.csv#column -->
   Every number in the body cells that start with a number is checked against the union of
   the listed files (header rows are not checked; marked links in a cell are checked against
   their own target). An anchor may name a row's own record: {N} stands for the text of the
   row's N-th cell (markup removed), so under
       <!-- measured: data/summary.json#by_name.{1} -->
   each row's numbers are checked against the record its first cell names, not the whole file.

A printed number matches a value when the value, rounded to the printed decimals, equals it
(integers to the integer; 1.2e-7 or 1.2 × 10^-7 to the printed digits of the mantissa); a
number printed with % also matches value×100; 10^2.59 matches a value whose log10 rounds to
2.59, or 2.59 itself. Signs count (−0.017 needs a negative value). Fenced code blocks and
inline code are not read.

A search over more than 300 numbers proves little and prints a warning; over 5000 numbers it
is a failure (anchor the mark to the field the number comes from).

Usage: scripts/check-doc-numbers.py [-v] [PATH ...]   (PATH: a .md file or a folder of them;
default: docs). Exit 0 when every mark matches, 1 on any failure, 2 on bad usage.
"""
import argparse
import csv
import json
import math
import os
import re
import sys

WARN_NUMBERS = 300
FAIL_NUMBERS = 5000
DATA_EXTENSIONS = (".json", ".jsonl", ".csv", ".txt")
MINUS = "\u2212"
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺·", "0123456789--.")

# ---------------------------------------------------------------------------------------------
# Numbers as printed: value, how precisely it is printed, and its form.


class Printed:
    """A number as printed in a page.

    kind: "dec" (value to `decimals` places), "sci" (mantissa × 10^exp: ulp is `ulp`),
    "pow" (10^value, value printed to `decimals`). percent: printed with %.
    """

    def __init__(self, text, value, kind, decimals=0, ulp=None, percent=False):
        self.text, self.value, self.kind = text, value, kind
        self.decimals, self.percent = decimals, percent
        self.ulp = ulp if ulp is not None else 10.0 ** -decimals

    def __repr__(self):
        return f"Printed({self.text!r}, {self.value}, {self.kind})"


_SIGN = r"[-+\u2212]?"
_MANT = r"(?:\d{1,3}(?:(?:,|\u202f|\u2009)\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_EXP = r"[eE][-+\u2212]?\d+"


def _pow(prefix):
    """10^x, 10^{x} or 10 with a superscript exponent; the exponent in group PREFIXexp/PREFIXsup."""
    return (rf"10\s?(?:\^\s?\{{?\s?(?P<{prefix}exp>[-+\u2212]?\d+(?:\.\d+)?)\s?\}}?"
            rf"|(?P<{prefix}sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+(?:·[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?))")


NUMBER_RE = re.compile(
    r"(?<![\w.\-\u2212^])"  # not inside a word, a version or another number
    rf"(?:(?P<pow>{_pow('p')})"
    rf"|(?P<sign>{_SIGN})(?P<mant>{_MANT})"
    rf"(?:(?P<exp>{_EXP})|\s?[×x·]\s?(?P<tpow>{_pow('t')}))?)"
    r"(?P<pct>\s?%)?"
    r"(?![\w]|[-\u2010][A-Za-z]|\.\d)"  # not followed by a letter (4k, 0.5b, 1-hop)
)


def _float(s):
    return float(s.replace(MINUS, "-").replace(",", "").replace("\u202f", "").replace("\u2009", ""))


def _decimals(s):
    s = s.replace(MINUS, "-")
    return len(s.split(".", 1)[1]) if "." in s else 0


def _printed(m):
    text, pct = m.group(0), m.group("pct") is not None
    if m.group("pow"):
        raw = m.group("pexp") if m.group("pexp") is not None else m.group("psup").translate(SUPERSCRIPTS)
        return Printed(text, _float(raw), "pow", decimals=_decimals(raw), percent=pct)
    mant = (m.group("sign") or "") + m.group("mant")
    if m.group("exp"):
        exp = int(m.group("exp")[1:].replace(MINUS, "-"))
        return Printed(text, _float(mant) * 10.0**exp, "sci", ulp=10.0 ** (exp - _decimals(mant)), percent=pct)
    if m.group("tpow"):
        raw = m.group("texp") if m.group("texp") is not None else m.group("tsup").translate(SUPERSCRIPTS)
        exp = _float(raw)
        return Printed(text, _float(mant) * 10.0**exp, "sci", ulp=10.0 ** (exp - _decimals(mant)), percent=pct)
    return Printed(text, _float(mant), "dec", decimals=_decimals(mant), percent=pct)


def parse_numbers(text):
    """Every number printed in `text`, in order, as Printed."""
    return [_printed(m) for m in NUMBER_RE.finditer(text)]


def starts_with_number(text):
    m = NUMBER_RE.search(text)
    return m is not None and text[: m.start()].strip(" *_") == ""


def _close(value, target, ulp):
    return abs(value - target) <= 0.5 * ulp * (1 + 1e-9) + 1e-12 * abs(target)


def matches(p, value):
    """Does the file value `value` print as `p`?"""
    if p.kind == "pow":
        if value > 0 and _close(math.log10(value), p.value, p.ulp):
            return True
        return _close(value, p.value, p.ulp)
    if _close(value, p.value, p.ulp):
        return True
    return p.percent and _close(value * 100, p.value, p.ulp)


def distance(p, value):
    if p.kind == "pow":
        if value > 0:
            return min(abs(math.log10(value) - p.value), abs(value - p.value))
        return abs(value - p.value)
    d = abs(value - p.value)
    return min(d, abs(value * 100 - p.value)) if p.percent else d


# ---------------------------------------------------------------------------------------------
# Data files: numeric leaves, parsed once.


class DataError(Exception):
    pass


def _leaves(node, out):
    if isinstance(node, bool) or node is None:
        return
    if isinstance(node, (int, float)):
        if math.isfinite(node):
            out.append(float(node))
    elif isinstance(node, dict):
        for v in node.values():
            _leaves(v, out)
    elif isinstance(node, list):
        for v in node:
            _leaves(v, out)


def _csv_number(cell):
    try:
        v = float(cell.strip())
    except ValueError:
        return None
    return v if math.isfinite(v) else None


class DataFiles:
    """Parsed data files by absolute path; each is read once."""

    def __init__(self):
        self._cache = {}

    def _load(self, path):
        if path in self._cache:
            return self._cache[path]
        if not os.path.isfile(path):
            raise DataError("no such file")
        ext = os.path.splitext(path)[1].lower()
        try:
            with open(path, encoding="utf-8") as f:
                if ext == ".json":
                    tree = ("json", json.load(f))
                elif ext == ".jsonl":
                    tree = ("json", [json.loads(line) for line in f if line.strip()])
                elif ext == ".csv":
                    rows = list(csv.reader(f))
                    tree = ("csv", rows)
                else:
                    tree = ("txt", [p.value for p in parse_numbers(f.read())])
        except (ValueError, UnicodeDecodeError) as e:
            raise DataError(f"cannot be parsed ({e})")
        self._cache[path] = tree
        return tree

    def numbers(self, path, anchor):
        """The numbers of `path` (restricted to `anchor` when given)."""
        kind, tree = self._load(path)
        if kind == "json":
            return _json_numbers(tree, anchor)
        if kind == "csv":
            return _csv_numbers(tree, anchor)
        if anchor:
            raise DataError("a .txt file takes no anchor")
        return tree


def _step(node, parts, i):
    """The child of `node` named by parts[i:], and how many parts it took: an array index, or
    the longest run of parts that, joined by dots, is a key (keys like "gpt2_s0.25")."""
    if isinstance(node, list):
        key = parts[i]
        if re.fullmatch(r"-?\d+", key) and -len(node) <= int(key) < len(node):
            return node[int(key)], 1
    elif isinstance(node, dict):
        for n in range(len(parts) - i, 0, -1):
            key = ".".join(parts[i : i + n])
            if key in node:
                return node[key], n
    return None, 0


def _json_numbers(tree, anchor):
    node = tree
    if anchor:
        parts, i = anchor.split("."), 0
        while i < len(parts):
            child, taken = _step(node, parts, i)
            if not taken:
                here = ", ".join(list(node)[:8]) if isinstance(node, dict) else (
                    f"an array of {len(node)}" if isinstance(node, list) else "a value")
                at = ".".join(parts[:i]) or "the top"
                raise DataError(f"anchor '{anchor}' has no '{parts[i]}' at {at} (there: {here})")
            node, i = child, i + taken
    out = []
    _leaves(node, out)
    return out


def _csv_numbers(rows, anchor):
    if not rows:
        return []
    if not anchor:
        return [v for row in rows for v in map(_csv_number, row) if v is not None]
    header = [h.strip() for h in rows[0]]
    if anchor not in header:
        raise DataError(f"anchor '{anchor}' is not a column (columns: {', '.join(header[:12])})")
    col = header.index(anchor)
    return [v for row in rows[1:] if col < len(row) for v in [_csv_number(row[col])] if v is not None]


# ---------------------------------------------------------------------------------------------
# Pages: marks and their numbers.


class Mark:
    """Printed numbers on one line checked against targets (each "data/x.json#anchor")."""

    def __init__(self, line, numbers, targets):
        self.line, self.numbers, self.targets = line, numbers, targets


def _blank_code(text):
    """The page with fenced code blocks and inline code spans replaced by spaces (lines kept)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if re.match(r"\s*(```|~~~)", line):
            fenced = not fenced
            out.append(" " * len(line))
        elif fenced:
            out.append(" " * len(line))
        else:
            out.append(re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line))
    return "\n".join(out)


def _links(text):
    """(start, end, link text, target) of every inline link [text](target), images excluded."""
    for m in re.finditer(r"\]\(([^()\s]*)\)", text):
        depth, i = 0, m.start()
        while i >= 0:
            c = text[i]
            if c == "]":
                depth += 1
            elif c == "[":
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i < 0 or (i > 0 and text[i - 1] == "!"):
            continue
        yield i, m.end(), text[i + 1 : m.start()], m.group(1)


def _is_data_target(target):
    path = target.split("#", 1)[0]
    return path.startswith(("data/", "./data/")) and path.lower().endswith(DATA_EXTENSIONS)


def _line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def link_marks(text, failures, page):
    """Marks from inline links whose text starts with a number and whose target is a data file.

    A data link whose text holds a number but does not start with it ("[≈0.4%](data/x.json)")
    would go unchecked: it is a failure."""
    marks = []
    for start, _, label, target in _links(text):
        if not _is_data_target(target):
            if starts_with_number(label) and re.search(r"\.jsonl?#", target):
                failures.append(f"{page}:{_line_of(text, start)}: the number '{label.strip()}' links to "
                                f"{target}, which is not a data file (data/FILE#path): it goes unchecked")
            continue
        if starts_with_number(label):
            marks.append(Mark(_line_of(text, start), parse_numbers(label), [target]))
        elif parse_numbers(label):
            failures.append(f"{page}:{_line_of(text, start)}: the text of a link to {target} must start with "
                            f"its number ('{label.strip()}'); put words outside the link")
    return marks


def _cells(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return re.split(r"(?<!\\)\|", row)


def _strip_marked_links(cell):
    def keep(m):
        return " " if _is_data_target(m.group(2)) else m.group(1)
    return re.sub(r"\[([^\]]*)\]\(([^()\s]*)\)", keep, cell)


def block_marks(text, failures, page):
    """Marks from tables under <!-- measured: FILES -->; a marker with no table is a failure."""
    lines, marks = text.split("\n"), []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"\s*<!--\s*measured:\s*(.*?)\s*-->\s*", line)
        if not m:
            continue
        targets = m.group(1).split()
        if not targets or not all(_is_data_target(t) for t in targets):
            failures.append(f"{page}:{i + 1}: a measured marker names data files (data/x.json ...): '{m.group(1)}'")
            continue
        if i + 2 >= len(lines) or not lines[i + 1].lstrip().startswith("|") or not re.fullmatch(
                r"\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*", lines[i + 2]):
            failures.append(f"{page}:{i + 1}: the measured marker is not directly above a table")
            continue
        j = i + 3
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            cells = _cells(lines[j])
            row_targets = _row_targets(targets, cells, failures, f"{page}:{j + 1}")
            for cell in cells:
                cell = _strip_marked_links(cell)
                if row_targets and starts_with_number(cell):
                    marks.append(Mark(j + 1, parse_numbers(cell), row_targets))
            j += 1
    return marks


def _cell_text(cell):
    """A cell's text without markup: links keep their text; backquotes and asterisks go."""
    text = re.sub(r"\[([^\]]*)\]\([^()\s]*\)", r"\1", cell)
    return re.sub(r"[`*]", "", text).strip()


def _row_targets(targets, cells, failures, where):
    """The marker's targets with each {N} replaced by the row's N-th cell; None (and a failure)
    when that cell is missing or empty."""
    out = []
    for target in targets:
        for n in re.findall(r"\{(\d+)\}", target):
            if not 1 <= int(n) <= len(cells) or not _cell_text(cells[int(n) - 1]):
                failures.append(f"{where}: the marker's {{{n}}} names cell {n}, which is empty or missing "
                                "in this row (inline code is not read)")
                return None
        out.append(re.sub(r"\{(\d+)\}", lambda m: _cell_text(cells[int(m.group(1)) - 1]), target))
    return out


# ---------------------------------------------------------------------------------------------
# The check.


def _fmt(v):
    return f"{v:.6g}"


class Checker:
    def __init__(self, verbose=False):
        self.data = DataFiles()
        self.verbose = verbose
        self.failures, self.warnings = [], []
        self.warned = set()
        self.checked = 0
        self.pages = 0

    def _numbers(self, page_dir, target):
        """The numbers of one target, or raises DataError naming why there are none."""
        path, _, anchor = target.partition("#")
        data_root = os.path.realpath(os.path.join(page_dir, "data"))
        full = os.path.realpath(os.path.join(page_dir, path))
        if not full.startswith(data_root + os.sep):
            raise DataError("is not under data/")
        return self.data.numbers(full, anchor)

    def check_mark(self, page, page_dir, mark):
        pool, bad = [], False
        for target in mark.targets:
            try:
                pool.extend(self._numbers(page_dir, target))
            except DataError as e:
                self.failures.append(f"{page}:{mark.line}: {target} {e}")
                bad = True
        if bad:
            return
        where = " ".join(mark.targets)
        if len(pool) > FAIL_NUMBERS:
            self.failures.append(
                f"{page}:{mark.line}: {where} holds {len(pool)} numbers (over {FAIL_NUMBERS}): "
                "finding one proves nothing; anchor the mark to its field (data/x.json#a.b)")
            return
        if len(pool) > WARN_NUMBERS and (page, where) not in self.warned:
            self.warned.add((page, where))
            self.warnings.append(
                f"{page}:{mark.line}: warning: {where} holds {len(pool)} numbers, so finding one proves little; "
                "anchor the mark to its field (said once per page and target)")
        for p in mark.numbers:
            self.checked += 1
            hit = next((v for v in pool if matches(p, v)), None)
            if hit is None:
                near = min(pool, key=lambda v: distance(p, v)) if pool else None
                nearest = f" (nearest: {_fmt(near)})" if near is not None else " (it holds no numbers)"
                self.failures.append(f"{page}:{mark.line}: {p.text.strip()} not in {where}{nearest}")
            elif self.verbose:
                print(f"{page}:{mark.line}: {p.text.strip()} = {_fmt(hit)} in {where}")

    def check_page(self, page):
        with open(page, encoding="utf-8") as f:
            text = _blank_code(f.read())
        page_dir = os.path.dirname(os.path.abspath(page))
        self.pages += 1
        first = len(self.failures)
        marks = link_marks(text, self.failures, page) + block_marks(text, self.failures, page)
        for mark in sorted(marks, key=lambda mark: mark.line):
            self.check_mark(page, page_dir, mark)
        line_of = lambda f: int(f.split(":", 2)[1])  # noqa: E731 ("PAGE:LINE: ...")
        self.failures[first:] = sorted(self.failures[first:], key=line_of)


def unmarked(page):
    """Numbers in `page` printed with decimals, %, × or an exponent that no mark covers (a
    prompt for review, not a failure: many such numbers are settings or arithmetic)."""
    with open(page, encoding="utf-8") as f:
        text = _blank_code(f.read())
    for start, end, label, target in _links(text):
        if _is_data_target(target):
            text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    lines, out, in_marked = text.split("\n"), [], False
    for i, line in enumerate(lines):
        if re.fullmatch(r"\s*<!--\s*measured:.*-->\s*", line):
            in_marked = True
            continue
        if not line.lstrip().startswith("|"):
            in_marked = False
        elif in_marked:
            continue
        shown = [p.text.strip() for p in parse_numbers(line)
                 if p.kind != "dec" or p.decimals > 0 or p.percent or "×" in line[line.find(p.text):][:len(p.text) + 2]]
        if shown:
            out.append(f"{page}:{i + 1}: unmarked: {', '.join(shown)}")
    return out


def _pages(paths):
    pages = []
    for p in paths:
        if os.path.isdir(p):
            pages += sorted(os.path.join(p, n) for n in os.listdir(p) if n.endswith(".md"))
        elif os.path.isfile(p) and p.endswith(".md"):
            pages.append(p)
        else:
            raise ValueError(f"{p} is not a .md file or a folder; give docs/ or a page")
    return pages


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["docs"], help=".md files or folders of them (default: docs)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every checked number and its match")
    parser.add_argument("--unmarked", action="store_true",
                        help="also list numbers with decimals, %% or an exponent that no mark covers (not failures)")
    args = parser.parse_args(argv)
    try:
        pages = _pages(args.paths)
    except ValueError as e:
        print(f"check-doc-numbers: {e}", file=sys.stderr)
        return 2
    checker = Checker(verbose=args.verbose)
    for page in pages:
        checker.check_page(page)
        if args.unmarked:
            print("\n".join(unmarked(page)) or f"{page}: no unmarked numbers with decimals")
    for line in checker.warnings + checker.failures:
        print(line)
    print(f"check-doc-numbers: {checker.checked} marked numbers checked in {checker.pages} page(s): "
          f"{len(checker.failures)} failures, {len(checker.warnings)} warnings")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
