#!/usr/bin/env python3
"""Runs the same small commands with two posbias binaries and compares what they write: a
refactor that should change no number must pass it (theory, tasks, birth, train, eval, seeds,
heads and discrepancy on tiny inputs, a few seconds each).

  python3 scripts/compare-outputs.py OLD_POSBIAS NEW_POSBIAS [--keep DIR]

Each binary runs in its own folder (OLD/ and NEW/ under DIR, a temporary folder by default)
with OMP_NUM_THREADS=1; the tiny training run each binary makes is the input of its own eval,
heads and birth --run, so a change in training shows in everything after it. Text outputs must
be byte-identical; JSON outputs must be equal once the fields that measure the machine rather
than the model (wall seconds, tokens per second, peak memory, the machine and the version) are
left out. Prints one line per output, and exits 1 if any differs."""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

# Fields that measure the machine or the clock, not the model: left out of the comparison.
VOLATILE = {"seconds", "train_seconds", "tokens_per_s", "peak_rss_mb", "machine", "version",
            "elapsed_seconds", "wall_seconds", "created", "time", "date"}

# (name, arguments with {run} for the run folder, outputs the command writes in its folder)
COMMANDS = [
    ("theory-csv", "theory -L 3000 -H 12 -a 0.5 --out theory.csv", ["theory.csv"]),
    ("theory-json", "theory -L 500 -H 6 -a 0.3,0.5,0.7,0.5,0.5,0.9 --window 64 --format json "
     "--out theory.json", ["theory.json"]),
    ("theory-continuum", "theory -L 2000 -H 6 -a 0.5 --format json --out continuum.json",
     ["continuum.json"]),
    ("theory-exact", "theory -L 60 -H 3 --exact --out exact.csv", ["exact.csv"]),
    ("theory-alibi", "theory -L 400 -H 4 --alibi heads:8 --format json --out alibi.json",
     ["alibi.json"]),
    ("tasks", "tasks --task letter --hops 1,2 -L 24 --count 20 -o tasks.jsonl", ["tasks.jsonl"]),
    ("tasks-kv", "tasks --task kv -L 32 --count 20 -o kv.jsonl", ["kv.jsonl"]),
    ("birth", "birth --arch gpt2 --layers 3 --d-model 32 --heads 2 --length 24 --seeds 3 "
     "--bootstrap 20 --json birth.json --csv birth.csv", ["birth.json", "birth.csv"]),
    ("birth-hutchinson", "birth --arch qwen2 --layers 2 --d-model 32 --heads 4 --kv-heads 2 "
     "--length 40 --seeds 2 --method hutchinson --probes 4 --bootstrap 0 --json hutch.json",
     ["hutch.json"]),
    ("birth-alibi-window", "birth --arch gpt2 --pos alibi --window 12 --layers 4 --d-model 32 "
     "--heads 4 --length 30 --seeds 2 --bootstrap 10 --json alibi-birth.json",
     ["alibi-birth.json"]),
    ("train", "train --task number --layers 2 --d-model 32 --heads 2 --mlp 64 --steps 40 "
     "--warmup 5 --eval-every 20 --checkpoint-every 20 --batch 16 --eval-per-hop 16 --out {run}",
     ["{run}/metrics.jsonl", "{run}/summary.json"]),
    ("train-kv", "train --task kv --arch gpt2 --layers 2 --d-model 32 --heads 2 --mlp 64 -L 32 "
     "--steps 30 --warmup 5 --eval-every 10 --checkpoint-every 30 --log-checkpoints 0 "
     "--out kvrun", ["kvrun/metrics.jsonl"]),
    ("train-kv-seed1", "train --task kv --arch gpt2 --layers 2 --d-model 32 --heads 2 --mlp 64 "
     "-L 32 --steps 30 --warmup 5 --eval-every 10 --checkpoint-every 30 --log-checkpoints 0 "
     "--seed 1 --out kvrun1", ["kvrun1/metrics.jsonl"]),
    ("eval", "eval --run {run} --lengths 17,24 --count 16 --json eval.json", ["eval.json"]),
    ("eval-kv", "eval --run kvrun --count 10 --depths 0,50,100 --json eval-kv.json",
     ["eval-kv.json"]),
    ("eval-kv-seed1", "eval --run kvrun1 --count 10 --depths 0,50,100 --json eval-kv1.json",
     ["eval-kv1.json"]),
    ("seeds-kv", "seeds --eval eval-kv.json eval-kv1.json --json seeds-kv.json",
     ["seeds-kv.json"]),
    ("heads", "heads --run {run} --samples 8 --json heads.json", ["heads.json"]),
    ("heads-ablate", "heads --run {run} --samples 4 --ablate --causal-count 8 "
     "--json ablate.json", ["ablate.json"]),
    ("discrepancy", "discrepancy --function index --lengths 9,16,32 --count 8 "
     "--json disc.json", ["disc.json"]),
    ("discrepancy-search", "discrepancy --function index --search optimized --lengths 9,16 "
     "--head-dim 4 --starts 2 --steps 20 --json search.json", ["search.json"]),
    ("discrepancy-run", "discrepancy --run {run} --lengths 17,24 --count 8 --json disc-run.json",
     ["disc-run.json"]),
    ("train-text", "train --task text --arch gpt2 --layers 1 --d-model 32 --heads 2 --mlp 64 "
     "-L 32 --steps 20 --warmup 5 --batch 4 --eval-every 10 --out textrun",
     ["textrun/metrics.jsonl", "textrun/summary.json"]),
    ("eval-text", "eval --run textrun --json eval-text.json", ["eval-text.json"]),
    ("birth-run-kv", "birth --run kvrun --inputs kv --target answer --checkpoints all "
     "--depths 0,100 --seeds 2 --json birth-kv.json", ["birth-kv.json"]),
    ("birth-run-text", "birth --run textrun --checkpoints all -L 32 --seeds 2 "
     "--json birth-text.json",
     ["birth-text.json"]),
]


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def load(path):
    text = path.read_text()
    if path.suffix == ".json":
        return strip(json.loads(text))
    if path.suffix == ".jsonl":
        return [strip(json.loads(line)) for line in text.splitlines() if line.strip()]
    return text


def run_all(binary, folder, commands):
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    codes = {}
    for name, args, _ in commands:
        argv = [binary] + args.format(run="run").split()
        with open(folder / f"{name}.log", "w") as log:
            codes[name] = subprocess.run(argv, cwd=folder, env=env, stdout=log,
                                         stderr=subprocess.STDOUT).returncode
    return codes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--keep", help="folder for the outputs (default: a temporary one)")
    parser.add_argument("--only", help="comma list of command names to run (default: all)")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    commands = [c for c in COMMANDS if only is None or c[0] in only]
    if only and len(commands) != len(only):
        parser.error(f"--only names a command that is not in the list: {sorted(only)}")
    root = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="posbias-compare-"))
    binaries = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    codes = {side: run_all(b, root / side, commands) for side, b in binaries.items()}
    differ = 0
    for name, _, outputs in commands:
        if codes["old"][name] != codes["new"][name] or codes["old"][name] != 0:
            print(f"{name}: exit {codes['old'][name]} (old) and {codes['new'][name]} (new); "
                  f"logs in {root}")
            differ += 1
            continue
        for out in outputs:
            rel = out.format(run="run")
            a, b = load(root / "old" / rel), load(root / "new" / rel)
            same = a == b
            differ += not same
            print(f"{name} {rel}: {'same' if same else 'DIFFERENT'}")
    print(f"{differ} difference(s); outputs in {root}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
