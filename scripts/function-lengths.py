#!/usr/bin/env python3
"""Lists the C++ functions longer than a limit, from the signature's first line to the closing
brace (lambdas and local classes count toward the function that holds them).

  python3 scripts/function-lengths.py [--limit 120] [DIR_OR_FILE ...]   # default: src experiments
  python3 scripts/function-lengths.py --selftest   # the parse on a file of known lengths

Exit 1 when a function is over the limit, so CTest can hold the line. The parse is lexical:
comments, strings and character literals are blanked, then a `{` at namespace or class level
opens a function body when the text before it (since the last `;`, `{` or `}`) has a `)` and
is not a namespace, class, struct, union, enum or an initializer (`= {`)."""
import argparse
import pathlib
import re
import sys

SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b|extern\s+\"C\"")


def blank(text):
    """Comments, string and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            k = text.find("(", i)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            j = n if j < 0 else j + len(delim) + 2
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + '"')
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, last line) of every function body at namespace or class level."""
    text = blank(path.read_text())
    found, stack, start = [], [], 0  # stack: for each open brace, is it a scope brace?
    line_of = [0] * (len(text) + 1)
    line = 1
    for i, c in enumerate(text):
        line_of[i] = line
        if c == "\n":
            line += 1
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            head = text[start:i]
            at_scope = all(stack)
            is_scope = bool(SCOPE.search(head)) and "(" not in head.split("{")[-1][:1]
            if at_scope and not is_scope and ")" in head and not re.search(r"=\s*$", head):
                depth, j = 1, i + 1
                while j < len(text) and depth:
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                signature = head.strip()
                name = re.findall(r"([~\w:]+)\s*\(", signature)
                first = line_of[start + len(head) - len(head.lstrip())]
                found.append((name[0] if name else "?", first, line_of[j - 1]))
                i, start = j, j
                continue
            stack.append(at_scope and (is_scope or ")" not in head))
            start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            start = i + 1
        elif c == ";":
            start = i + 1
        i += 1
    return found


SELFTEST = r"""namespace a {
struct S {
  int f() const {
    return 1;
  }
  int x = 0;
};
const char* t = "} { ( ) {";  // } {
/* int fake() {
} */
int g(int y) {
  auto l = [&](int z) {
    if (z) { return "}"; }
    return "{";
  };
  const int arr[] = {1, 2};
  return l(y)[0] + arr[0] + '}';
}
enum class E { kA, kB };
}  // namespace a
"""


def selftest():
    """The lengths of SELFTEST's functions, computed by hand: f 3 lines, g 8; the braces in
    strings, characters, comments, the enum and the array initializer open no function."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".cc", delete=False) as f:
        f.write(SELFTEST)
    found = [(name, last - first + 1) for name, first, last in functions(pathlib.Path(f.name))]
    pathlib.Path(f.name).unlink()
    expected = [("f", 3), ("g", 8)]
    if found != expected:
        sys.exit(f"function-lengths selftest: found {found}, expected {expected}")
    print("function-lengths selftest: ok")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--selftest", action="store_true")
    parser.add_argument("paths", nargs="*", default=["src", "experiments"])
    args = parser.parse_args()
    if args.selftest:
        return selftest()
    files = []
    for p in map(pathlib.Path, args.paths):
        files += sorted(p.rglob("*.cc")) + sorted(p.rglob("*.h")) if p.is_dir() else [p]
    over = []
    for f in files:
        for name, first, last in functions(f):
            if last - first + 1 > args.limit:
                over.append((last - first + 1, f"{f}:{first}", name))
    for length, where, name in sorted(over, reverse=True):
        print(f"{where}: {name} is {length} lines (limit {args.limit})")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
