#!/usr/bin/env python3
"""Runs the command each docs page marks, at a tiny size, so the pages cannot drift from the tool.

A page marks one command with a comment directly above the code block that holds it:

    <!-- docs-test: --layers 2 --seeds 2 -->
    ```sh
    posbias birth --arch gpt2 --layers 12 --seeds 8 --json birth.json
    ```

The first line of the block that runs posbias (`posbias ...`, `build/posbias ...` or
`$ posbias ...`, with its `\\` continuations) is run as the page shows it, in a fresh folder,
except that each `--flag value` of the comment replaces that flag's value in the command, or is
appended when the command has no such flag (before any `>` redirection). RUN_DIR and RUN stand
for a tiny Number run the script trains first. The command must exit 0, and every `--json FILE`
it names must then hold JSON.

Usage: scripts/docs-commands.py DOCS_DIR POSBIAS_BIN
       scripts/docs-commands.py --self-test FIXTURE_DIR POSBIAS_BIN
(the self-test runs the fixture pages, which must each fail, and one which must pass)
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# The pages a user runs commands from; each must mark one.
PAGES = ["birth.md", "hops.md", "llm.md", "mech.md", "mitigations.md", "retrieval.md",
         "scale-out.md", "theory.md", "text.md"]
MARK = re.compile(r"<!--\s*docs-test:(.*?)-->")
PROGRAM = re.compile(r"^(\$ )?(build/)?posbias\s")
TINY_RUN = ("train --task number --layers 2 --d-model 64 --steps 20 --warmup 2 --eval-every 10 "
            "--eval-per-hop 8 --checkpoint-every 10 --out")


def marked_command(text):
    """(overrides, command) of the page's mark, or raises ValueError."""
    lines = text.split("\n")
    found = [(i, m) for i, line in enumerate(lines) for m in [MARK.search(line)] if m]
    if len(found) != 1:
        raise ValueError(f"{len(found)} docs-test marks (one is needed)")
    i, m = found[0]
    if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
        raise ValueError("the docs-test mark is not directly above a code block")
    command = None
    j = i + 2
    while j < len(lines) and not lines[j].startswith("```"):
        if command is None and PROGRAM.match(lines[j]):
            command = PROGRAM.sub("", lines[j])
            while command.rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
                command = command.rstrip()[:-1] + " " + lines[j].strip()
        j += 1
    if command is None:
        raise ValueError("the marked code block runs no posbias command")
    command = command.split("  #")[0].strip()  # a trailing comment
    if "..." in command or "[" in command or "|" in command:
        raise ValueError(f"the marked command is a synopsis, not a command: {command}")
    return shlex.split(m.group(1)), command


def apply_overrides(command, overrides):
    redirect = ""
    if " > " in command:
        command, redirect = command.split(" > ", 1)
        redirect = " > " + redirect
    words = shlex.split(command)
    k = 0
    while k < len(overrides):
        flag = overrides[k]
        value = overrides[k + 1] if k + 1 < len(overrides) and not overrides[k + 1].startswith("-") else None
        k += 2 if value is not None else 1
        if flag in words:
            at = words.index(flag)
            if value is not None:
                words[at + 1] = value
        else:
            words += [flag] + ([value] if value is not None else [])
    return " ".join(shlex.quote(w) for w in words) + redirect


def run_page(path, posbias, work):
    text = open(path, encoding="utf-8").read()
    overrides, command = marked_command(text)
    command = apply_overrides(command, overrides)
    if re.search(r"\bRUN(_DIR)?\b", command):
        run = os.path.join(work, "tiny-run")
        if not os.path.isdir(run):
            r = subprocess.run(f"{shlex.quote(posbias)} {TINY_RUN} {shlex.quote(run)}", shell=True,
                               cwd=work, capture_output=True, text=True, timeout=300)
            if r.returncode != 0:
                raise ValueError(f"training the tiny run failed: {r.stderr.strip()[-300:]}")
        command = re.sub(r"\bRUN(_DIR)?\b", run, command)
    folder = tempfile.mkdtemp(dir=work)
    full = f"{shlex.quote(posbias)} {command}"
    r = subprocess.run(full, shell=True, cwd=folder, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        last = (r.stderr.strip() or r.stdout.strip()).split("\n")[-1][:300]
        raise ValueError(f"`posbias {command}` exited {r.returncode}: {last}")
    words = shlex.split(command.split(" > ")[0])
    for k, w in enumerate(words[:-1]):
        if w == "--json" and words[k + 1] != "-":
            with open(os.path.join(folder, words[k + 1]), encoding="utf-8") as f:
                json.load(f)
    return command


def main(argv):
    self_test = argv[1:2] == ["--self-test"]
    args = argv[2:] if self_test else argv[1:]
    if len(args) != 2:
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    folder, posbias = args
    posbias = os.path.abspath(posbias)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        if self_test:
            for name in sorted(os.listdir(folder)):
                if not name.endswith(".md"):
                    continue
                try:
                    run_page(os.path.join(folder, name), posbias, work)
                    ok = name.startswith("good")
                except (ValueError, OSError, json.JSONDecodeError) as e:
                    ok = not name.startswith("good")
                    print(f"{name}: refused as it should be: {e}" if ok else f"{name}: {e}")
                if not ok:
                    print(f"docs-commands self-test: {name} gave the wrong verdict", file=sys.stderr)
                    failures += 1
            return 1 if failures else 0
        for page in PAGES:
            try:
                command = run_page(os.path.join(folder, page), posbias, work)
                print(f"{page}: ok: posbias {command}")
            except (ValueError, OSError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
                print(f"{page}: {e}", file=sys.stderr)
                failures += 1
    print(f"docs-commands: {len(PAGES) - failures} of {len(PAGES)} pages' marked commands ran")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
