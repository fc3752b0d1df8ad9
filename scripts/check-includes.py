#!/usr/bin/env python3
"""Checks who includes whom across the two halves of the tree (docs/architecture.md):

- the library (include/posbias/, src/) includes nothing of experiments/;
- an experiment (experiments/<name>/) includes another experiment's headers only along the
  edges listed in ALLOWED below, each with the reason it is there: a section that runs other
  experiments (reproduce, mitigations), a command that dispatches to their summaries (seeds),
  a section that takes another's results as a typed value (the hop runs). A piece two
  experiments share belongs in the library instead.

  python3 scripts/check-includes.py [ROOT]   # ROOT: the source tree, default this checkout

Prints one line per include that breaks a rule (file, line, the include) and exits 1 if any."""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"(experiments/([^/"]+)/[^"]+)"', re.M)

# (from, to): experiment `from` may include experiment `to`'s headers, and why.
ALLOWED = {
    **{("reproduce", e): "reproduce runs every section in order" for e in
       ("theory", "birth", "text", "retrieval", "hops", "mech", "llm", "mitigations")},
    ("mitigations", "birth"): "the section runs birth (--null-sink, W against W + 1)",
    ("mitigations", "theory"): "the section runs theory design",
    ("mitigations", "retrieval"): "the section trains and evaluates kv runs with their presets",
    ("seeds", "hops"): "`posbias seeds` dispatches to the hop summaries (hop_seeds.h)",
    ("seeds", "retrieval"): "`posbias seeds --eval` dispatches to the kv summary (kv_seeds.h)",
    ("llm", "hops"): "the llm section serves the hop runs the hops section trained",
    ("mech", "hops"): "the mech section measures the hop runs the hops section trained",
    ("text", "birth"): "the text section runs birth --run on its runs",
}


def violations(root):
    out = []
    for top in ("include", "src", "experiments"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".h", ".cc", ".cpp"):
                continue
            rel = path.relative_to(root)
            text = path.read_text(encoding="utf-8", errors="replace")
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                target = m.group(2)
                if top != "experiments":
                    out.append(f"{rel}:{line}: the library includes an experiment: {m.group(1)}")
                    continue
                source = rel.parts[1]
                if source != target and (source, target) not in ALLOWED:
                    out.append(f"{rel}:{line}: experiment {source} includes experiment "
                               f"{target}'s {m.group(1)} (move the shared piece to the library, "
                               "or list the edge in scripts/check-includes.py with its reason)")
    return out


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    bad = violations(root)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
