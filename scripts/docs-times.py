#!/usr/bin/env python3
"""Times the short commands the docs pages show, for each page's "Time" note.

Each command runs as its page shows it (inputs taken from docs/data/ where the page names
files a user would have), in a fresh folder, under `/usr/bin/time -f %e`, one at a time, with
OMP_NUM_THREADS=2 (a 2-core machine); a command that passes 120 s is stopped and fails the
script. The seconds go to docs/data/times/PAGE.json with the machine and the date:

    {"machine": {...}, "date": "...", "threads": 2, "note": "...",
     "commands": {"NAME": {"command": "posbias ...", "seconds": 0.41}}}

and a page links them: [0.4](data/times/theory.json#commands.row.seconds) s. After a new run,
`scripts/check-doc-numbers.py docs` names each page number that no longer matches. The long
commands (training, a full birth run) are not run here: their pages link the seconds their
own results recorded (train_seconds in a run's summary, seconds in a result).

Usage: scripts/docs-times.py POSBIAS [PAGE ...]   (default: every page below; run from the
source tree). Exit 0 when every command ran, 1 otherwise.
"""
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

LIMIT_SECONDS = 120
THREADS = "2"
NOTE = ("Measured one command at a time with OMP_NUM_THREADS=2 on a 2-core machine shared with "
        "other engineers' builds and a long-running experiment: an idle machine may be faster.")

# page -> [(name, command, setup)]: `posbias` is the binary under test; `setup` (untimed) makes
# the command's inputs in its folder, where docs/ is the source tree's.
COMMANDS = {
    "theory": [
        ("row", "posbias theory -L 2048 -H 24 -a 0.5 --summary summary.json --plot fig > row.csv",
         ""),
        ("fit", "posbias theory fit --profile measured.csv -H 12 --json fit.json --plot fit",
         "cp docs/data/birth/gpt2.csv measured.csv"),
    ],
    "birth": [
        ("compare", "posbias theory compare docs/data/birth/depth/gpt2_h{1,2,4,8,16,32}.json "
         "--json compare_gpt2.json --plot birth_depth_gpt2", ""),
        ("shares", "posbias theory shares "
         "docs/data/birth/{gpt2,gpt2_unscaled,qwen2_rope,qwen2_none}.json --json shares.json", ""),
    ],
    "hops": [
        ("tasks", "posbias tasks --task number --hops 2 --count 1 --seed 4", ""),
        ("seeds", "posbias seeds --summary number-seed{0,1,2}-summary.json "
         "--metrics number-seed{0,1,2}-metrics.jsonl --eval number-seed{0,1,2}-eval.json "
         "--heads number-seed{0,1,2}-heads.json --discrepancy number-seed{0,1,2}-discrepancy.json "
         "--json number-seeds.json --csv number-seeds.csv --plot number-seeds",
         "cp docs/data/hops/seeds/number-seed* ."),
    ],
    "text": [
        ("seeds", "posbias seeds RUN0-birth.json RUN1-birth.json RUN2-birth.json "
         "--json F --csv F.csv --plot STEM",
         "for s in 0 1 2; do cp docs/data/text/gpt2-seed$s-birth.json RUN$s-birth.json; done"),
    ],
    "scale-out": [
        ("sweep_plan", "posbias sweep plan GRID.json --out sweeps/ablation",
         "cp docs/data/scale-out/sweep-grid.json GRID.json"),
        ("sweep_status", "posbias sweep status sweeps/ablation --json st.json",
         "posbias sweep plan docs/data/scale-out/sweep-grid.json --out sweeps/ablation"),
    ],
    "mech": [
        ("discrepancy_index", "posbias discrepancy --function index --json index.json --plot index",
         ""),
        ("discrepancy_reflexive", "posbias discrepancy --function reflexive --json reflexive.json "
         "--plot reflexive", ""),
    ],
    "retrieval": [
        ("tasks", "posbias tasks --task kv -L 40 --count 1 --seed 4", ""),
        ("tasks_2000", "posbias tasks --task kv -L 256 --count 2000 --depth-prior ends -o kv.jsonl",
         ""),
        ("tasks_check", "posbias tasks check kv.jsonl",
         "posbias tasks --task kv -L 256 --count 2000 --depth-prior ends -o kv.jsonl"),
    ],
    "llm": [
        ("write_templates", "posbias llm --write-templates my_templates", ""),
    ],
}


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": model, "system": platform.platform()}


def run(command, folder, env, timed):
    """Runs `command` in `folder`; its seconds under /usr/bin/time when `timed`."""
    argv = ["bash", "-c", command]
    if timed:
        argv = ["/usr/bin/time", "-f", "%e", "-o", ".seconds"] + argv
    try:
        done = subprocess.run(argv, cwd=folder, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"over {LIMIT_SECONDS} s: {command}")
    if done.returncode != 0:
        raise RuntimeError(f"exit {done.returncode}: {command}\n{done.stderr[-2000:]}")
    if not timed:
        return None
    with open(os.path.join(folder, ".seconds")) as f:
        return float(f.read().split()[-1])


def time_command(posbias, source, command, setup):
    """Seconds `command` took in a fresh folder, after its untimed `setup`."""
    with tempfile.TemporaryDirectory(prefix="posbias-docs-times-") as folder:
        os.symlink(os.path.join(source, "docs"), os.path.join(folder, "docs"))
        bindir = os.path.join(folder, ".bin")
        os.mkdir(bindir)
        os.symlink(posbias, os.path.join(bindir, "posbias"))
        env = dict(os.environ, OMP_NUM_THREADS=THREADS,
                   PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        if setup:
            run(setup, folder, env, timed=False)
        return run(command, folder, env, timed=True)


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.split("Usage: ")[1].strip(), file=sys.stderr)
        return 2
    posbias = os.path.abspath(argv[1])
    source = os.getcwd()
    pages = argv[2:] or list(COMMANDS)
    failed = 0
    for page in pages:
        if page not in COMMANDS:
            print(f"docs-times: no page '{page}' (pages: {', '.join(COMMANDS)})", file=sys.stderr)
            return 2
        commands = {}
        for name, command, setup in COMMANDS[page]:
            try:
                seconds = time_command(posbias, source, command, setup)
            except RuntimeError as e:
                print(f"docs-times: {page}/{name}: {e}", file=sys.stderr)
                failed += 1
                continue
            commands[name] = {"command": command, "seconds": seconds}
            print(f"{page}/{name}: {seconds:.2f} s", file=sys.stderr)
        if len(commands) < len(COMMANDS[page]):
            continue  # the page's file keeps its last complete measurement
        out = os.path.join(source, "docs", "data", "times", page + ".json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        record = {"machine": machine(), "date": time.strftime("%Y-%m-%d"),
                  "threads": int(THREADS), "note": NOTE, "commands": commands}
        with open(out, "w") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
