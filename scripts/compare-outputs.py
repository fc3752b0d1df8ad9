#!/usr/bin/env python3
"""Runs the same small commands with two posbias binaries and compares what they write: a
refactor that should change no number must pass it (theory, tasks, birth, train, eval, seeds,
heads, discrepancy and reproduce's first sections, on tiny inputs and on the shipped files in
docs/data, a few seconds to a minute and a half each at one thread).

  python3 scripts/compare-outputs.py OLD_POSBIAS NEW_POSBIAS [--keep DIR] [--only NAMES]

Each binary runs in its own folder (OLD/ and NEW/ under DIR, a temporary folder by default)
with OMP_NUM_THREADS=1; the tiny training runs each binary makes are the inputs of its own eval,
heads, birth --run and seeds, so a change in training shows in everything after it. The shipped
inputs ({data} in the table: docs/data beside this script) are read, never written. Text outputs
must be byte-identical; JSON outputs must be equal once the fields that measure the machine
rather than the model (wall seconds, tokens per second, peak memory, the machine and the
version) are left out. Prints one line per output (for one that differs: in how many values, and
the value that differs most, relatively: float rounding shows as 1e-7 and below), then each
command's seconds, and exits 1 if any output differs."""
import argparse
import json
import math
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import time

# Fields that measure the machine or the clock, not the model: left out of the comparison.
VOLATILE = {"seconds", "train_seconds", "tokens_per_s", "peak_rss_mb", "machine", "version",
            "elapsed_seconds", "wall_seconds", "created", "time", "date"}

# Seconds a command may run (the longest, reproduce's first two sections, takes under two
# minutes at one thread).
LIMIT = 300

# The shipped inputs: docs/data of the checkout this script is in.
DATA = pathlib.Path(__file__).resolve().parent.parent / "docs" / "data"


def per_seed(pattern, seeds=(0, 1, 2), sep=" "):
    """The pattern once per seed, {s} replaced by the seed: a shell's brace expansion."""
    return sep.join(pattern.replace("{s}", str(s)) for s in seeds)


# The hop seeds' files as docs/data/hops/seeds ships them (TASK number or letter), for `seeds`.
HOP_SEEDS = "{data}/hops/seeds/TASK-seed{s}"
# The Number ablations' evals for `seeds --compare`, as scripts/ablation-docs-data.sh names them.
ABLATION = "{data}/hops/ablation/number-"
# What `reproduce` writes in its theory and birth sections, the first two (80 s at one thread);
# the run is stopped once the last of them is written (the text section's training is next).
REPRODUCE = ([f"rep/theory/theory_{n}.csv" for n in ("profiles", "continuum", "operators")]
             + ["rep/theory/theory_summary.json"]
             + [f"rep/birth/birth_{n}.csv" for n in ("gpt2", "qwen2_rope", "qwen2_none")]
             + ["rep/birth/birth_summary.json"])

# (name, arguments with {run} for the run folder and {data} for the shipped inputs (quoted as a
# shell would), outputs the command writes in its folder (NAME.log holds what it prints)[, the
# output whose writing ends the command: it is stopped then])
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
    # Tiny runs' second seeds and what reads them: seeds over hop and text runs, colocation.
    ("train-seed1", "train --task number --layers 2 --d-model 32 --heads 2 --mlp 64 --steps 40 "
     "--warmup 5 --eval-every 20 --checkpoint-every 20 --batch 16 --eval-per-hop 16 --seed 1 "
     "--out run1", ["run1/metrics.jsonl", "run1/summary.json"]),
    ("eval-seed1", "eval --run run1 --lengths 17,24 --count 16 --json eval1.json", ["eval1.json"]),
    ("heads-seed1", "heads --run run1 --samples 8 --json heads1.json", ["heads1.json"]),
    ("discrepancy-run-seed1", "discrepancy --run run1 --lengths 17,24 --count 8 "
     "--json disc-run1.json", ["disc-run1.json"]),
    ("seeds-hop", "seeds --summary {run}/summary.json run1/summary.json --metrics "
     "{run}/metrics.jsonl run1/metrics.jsonl --eval eval.json eval1.json --heads heads.json "
     "heads1.json --discrepancy disc-run.json disc-run1.json --json seeds-hop.json "
     "--csv seeds-hop.csv", ["seeds-hop.json", "seeds-hop.csv"]),
    ("heads-patch", "heads --run {run} --samples 4 --patch --causal-count 8 --causal-lengths 17 "
     "--json patch.json", ["patch.json"]),
    ("train-text-seed1", "train --task text --arch gpt2 --layers 1 --d-model 32 --heads 2 "
     "--mlp 64 -L 32 --steps 20 --warmup 5 --batch 4 --eval-every 10 --seed 1 --out textrun1",
     ["textrun1/metrics.jsonl", "textrun1/summary.json"]),
    ("eval-text-seed1", "eval --run textrun1 --json eval-text1.json", ["eval-text1.json"]),
    ("birth-run-text-seed1", "birth --run textrun1 --checkpoints all -L 32 --seeds 2 "
     "--json birth-text1.json", ["birth-text1.json"]),
    ("seeds-text", "seeds birth-text.json birth-text1.json --eval eval-text.json eval-text1.json "
     "--json seeds-text.json --csv seeds-text.csv", ["seeds-text.json", "seeds-text.csv"]),
    ("birth-run-kv-seed1", "birth --run kvrun1 --inputs kv --target answer --checkpoints all "
     "--depths 0,100 --seeds 2 --json birth-kv1.json", ["birth-kv1.json"]),
    ("birth-colocate", "birth --colocate birth-kv.json birth-kv1.json --accuracy eval-kv.json "
     "eval-kv1.json --json colocate.json", ["colocate.json"]),
    ("train-passkey", "train --task text --arch qwen2 --layers 1 --d-model 32 --heads 2 "
     "--mlp 64 -L 64 --steps 20 --warmup 5 --batch 4 --eval-every 10 --needle-fraction 0.5 "
     "--out pkrun", ["pkrun/metrics.jsonl", "pkrun/summary.json"]),
    ("eval-passkey", "eval --run pkrun --depths 0,50,100 --lengths 64 --count 8 "
     "--json eval-pk.json --csv eval-pk.csv", ["eval-pk.json", "eval-pk.csv"]),
    ("birth-run-passkey", "birth --run pkrun --inputs passkey --checkpoints last --depths 0,100 "
     "--seeds 2 --json birth-pk.json", ["birth-pk.json"]),
    ("train-letter", "train --task letter --layers 2 --d-model 32 --heads 2 --mlp 64 --steps 40 "
     "--warmup 5 --eval-every 20 --checkpoint-every 20 --batch 16 --eval-per-hop 16 "
     "--out letterrun", ["letterrun/metrics.jsonl", "letterrun/summary.json"]),
    ("eval-letter", "eval --run letterrun --lengths 17,24 --count 16 --json eval-letter.json",
     ["eval-letter.json"]),
    ("birth-tokens-loss", "birth --arch gpt2 --layers 2 --d-model 32 --heads 2 --length 24 "
     "--seeds 2 --input tokens --target loss --bootstrap 0 --json birth-loss.json",
     ["birth-loss.json"]),
    ("birth-run-text-loss", "birth --run textrun --checkpoints all -L 32 --seeds 2 --target loss "
     "--json birth-text-loss.json", ["birth-text-loss.json"]),
    ("tasks-passkey", "tasks --task passkey --run pkrun --count 8 -o pk.jsonl", ["pk.jsonl"]),
    ("tasks-decoy-tokens", "tasks --task letter --variant decoy --hops 1,2 -L 24 --count 10 "
     "--format tokens -o decoy.txt", ["decoy.txt"]),
    ("tasks-check", "tasks check tasks.jsonl", ["tasks-check.log"]),
    # Evaluation-only changes of a rotary run (hop and passkey runs).
    ("eval-rope-scaling", "eval --run {run} --lengths 17,24 --count 16 --rope-scaling ntk:2 "
     "--json eval-ntk.json", ["eval-ntk.json"]),
    ("eval-logn", "eval --run {run} --lengths 17,24 --count 16 --logn-scale 0.3607 "
     "--json eval-logn.json", ["eval-logn.json"]),
    ("eval-passkey-pi", "eval --run pkrun --depths 0,50,100 --lengths 64 --count 8 "
     "--rope-scaling pi:2 --json eval-pk-pi.json", ["eval-pk-pi.json"]),
    # eval --checkpoints of several checkpoints: one file holding each checkpoint's result.
    ("eval-steps", "eval --run {run} --checkpoints all --lengths 17,24 --count 16 "
     "--json eval-steps.json", ["eval-steps.json"]),
    ("eval-kv-steps", "eval --run kvrun --checkpoints all --count 10 --depths 0,50,100 "
     "--json eval-kv-steps.json", ["eval-kv-steps.json"]),
    ("eval-text-steps", "eval --run textrun --checkpoints all --json eval-text-steps.json",
     ["eval-text-steps.json"]),
    ("eval-passkey-steps", "eval --run pkrun --checkpoints all --depths 0,50,100 --lengths 64 "
     "--count 8 --json eval-pk-steps.json", ["eval-pk-steps.json"]),
    ("birth-rescore", "birth --rescore birth.json --json rescore.json --csv rescore.csv",
     ["rescore.json", "rescore.csv"]),
    ("theory-fit", "theory fit --profile birth.csv -H 3 --bootstrap 20 --json fit.json",
     ["fit.json"]),
    # The shipped data, by the commands docs/ and scripts/*-docs-data.sh show, with the shipped
    # files as inputs where the command reads any (trained models are not shipped).
    ("theory-continuum-shipped", "theory -L 1e5 -H 24 -a 0.5 -o /dev/null "
     "--summary continuum-H24.json", ["continuum-H24.json"]),
    ("theory-fit-shipped", "theory fit --profile {data}/birth/gpt2.csv -H 12 "
     "--json fit-gpt2.json", ["fit-gpt2.json"]),
    ("theory-shares-shipped", "theory shares " + " ".join(
        f"{{data}}/birth/{n}.json" for n in ("gpt2", "gpt2_unscaled", "qwen2_rope", "qwen2_none"))
     + " --json shares.json", ["shares.json"]),
    ("theory-shares-baseline-shipped", "theory shares --baseline "
     "{data}/mitigations/design/gpt2_baseline.json {data}/mitigations/design/gpt2_design1.json "
     "{data}/mitigations/design/gpt2_design2.json --json design-shares.json",
     ["design-shares.json"]),
    ("theory-compare-shipped", "theory compare " + per_seed(
        "{data}/birth/depth/gpt2_h{s}.json", (1, 2, 4, 8, 16, 32)) +
     " --json compare.json --csv compare.csv", ["compare.json", "compare.csv"]),
    ("theory-design-shipped", "theory design -L 128 -H 12 --paths quadrature "
     "--windows 0,12,16,24,32,48,64 --alibis none,0.01,0.03,0.1,heads:4 --sinks 0,0.05,0.1,0.2 "
     "--null-sinks none,0,2,4 --alphas 0.1,0.22,0.43,0.75 --ramps 0.1:0.75,0.75:0.1 "
     "--baseline-alpha 0.22 --json design.json --csv design.csv", ["design.json", "design.csv"]),
    *[(f"discrepancy-{f}-shipped", f"discrepancy --function {f} {extra}--json mech-{f}.json",
       [f"mech-{f}.json"])
      for f, extra in (("index", ""), ("retrieval", "--theta 5e-4 "), ("reflexive", ""))],
    ("birth-rescore-shipped", "birth --rescore {data}/birth/gpt2.json --json rescore-gpt2.json "
     "--csv rescore-gpt2.csv", ["rescore-gpt2.json", "rescore-gpt2.csv"]),
    ("birth-colocate-shipped", "birth --colocate {data}/retrieval-influence/kv28-influence.json "
     "--accuracy {data}/retrieval-influence/kv28-eval.json --json colocate-kv28.json",
     ["colocate-kv28.json"]),
    *[(f"seeds-{task}-shipped", "seeds " + " ".join(
        f"--{o} " + per_seed(f"{HOP_SEEDS}-{o}.json{'l' if o == 'metrics' else ''}")
        for o in ("summary", "metrics", "eval", "heads", "discrepancy")).replace("TASK", task)
       + f" --json seeds-{task}.json --csv seeds-{task}.csv",
       [f"seeds-{task}.json", f"seeds-{task}.csv"]) for task in ("number", "letter")],
    ("seeds-control-shipped", "seeds --discrepancy " + per_seed(
        f"{HOP_SEEDS}-discrepancy-control.json").replace("TASK", "letter")
     + " --json seeds-control.json", ["seeds-control.json"]),
    ("seeds-compare-shipped", "seeds --compare 'default (rotary 16, θ 1e4)=" + per_seed(
        "{data}/hops/seeds/number-seed{s}-eval.json", sep=",") + "' " + " ".join(
        f"'{label}={per_seed(ABLATION + config + '-seed{s}-eval.json', sep=',')}'"
        for label, config in (("no positional encoding", "nope"),
                              ("rotary on every dim (128)", "rd128"), ("θ 1e6", "theta1000000")))
     + " --json number-compare.json --csv number-compare.csv",
     ["number-compare.json", "number-compare.csv"]),
    ("seeds-text-shipped", "seeds " + per_seed("{data}/text/gpt2-seed{s}-birth.json") +
     " --eval " + per_seed("{data}/text/gpt2-seed{s}-eval.json") +
     " --json seeds-gpt2.json --csv seeds-gpt2.csv", ["seeds-gpt2.json", "seeds-gpt2.csv"]),
    ("seeds-text-loss-shipped", "seeds " + per_seed("{data}/text/gpt2-seed{s}-birth-loss.json")
     + " --json seeds-gpt2-loss.json --csv seeds-gpt2-loss.csv",
     ["seeds-gpt2-loss.json", "seeds-gpt2-loss.csv"]),
    ("seeds-kv-shipped", "seeds --eval " + per_seed(
        "{data}/mitigations/rope-scaling/s{s}-base-eval.json") +
     " --json seeds-kv-base.json --csv seeds-kv-base.csv",
     ["seeds-kv-base.json", "seeds-kv-base.csv"]),
    # reproduce (the quick preset) up to the end of its birth section; the rest is left out.
    ("reproduce", "reproduce --out rep", REPRODUCE, REPRODUCE[-1]),
]


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def load(path):
    """The file's content to compare (None if it was not written)."""
    if not path.exists():
        return None
    text = path.read_text()
    if path.suffix == ".json":
        return strip(json.loads(text))
    if path.suffix == ".jsonl":
        return [strip(json.loads(line)) for line in text.splitlines() if line.strip()]
    return text


def cells(text):
    """A text file by line and comma-separated cell, numbers read as numbers: to say where two
    texts differ and by how much."""
    def cell(c):
        try:
            return float(c)
        except ValueError:
            return c
    return {f"line {i + 1}": {f"cell {j + 1}": cell(c) for j, c in enumerate(line.split(","))}
            for i, line in enumerate(text.splitlines())}


def differences(a, b, where=""):
    """Every place a and b differ, as (where, a's value, b's value)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            if k not in a or k not in b:
                yield f"{where}.{k}", a.get(k, "(absent)"), b.get(k, "(absent)")
            else:
                yield from differences(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{where}[{i}]")
    elif isinstance(a, str) and isinstance(b, str) and "\n" in a + b:
        yield from differences(cells(a), cells(b), where)
    elif a != b:
        yield where or "the whole", a, b


def relative(found):
    """How far apart two differing values are: |a - b| / max(|a|, |b|, 1e-12) for numbers (so
    that rounding noise about 0, a log R² of ±2e-16, is not the largest), else inf."""
    _, a, b = found
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
    return abs(a - b) / max(abs(a), abs(b), 1e-12) if numbers else math.inf


def verdict(a, b):
    """"same", or how many values differ and the one that differs most (relatively)."""
    if a is None or b is None:
        return "DIFFERENT: " + " and ".join(
            f"{side} {'did not write it' if x is None else 'wrote it'}"
            for side, x in (("old", a), ("new", b)))
    if a == b:
        return "same"
    found = list(differences(a, b))
    worst = max(found, key=relative)
    return ("DIFFERENT in {} place(s); the most at {}: {!r:.200} (old), {!r:.200} (new), "
            "relative {:.1e}".format(len(found), *worst, relative(worst)))


def run(argv, folder, env, log, until):
    """Runs one command; with until, stops it once that output is written (exit 0 then). A
    command still running after LIMIT seconds is stopped and reported as "timeout"."""
    proc = subprocess.Popen(argv, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + LIMIT
    while time.monotonic() < deadline:
        try:
            return proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            if until and (folder / until).exists():
                proc.terminate()
                proc.wait()
                return 0
    proc.terminate()
    proc.wait()
    return "timeout"


def run_all(binary, folder, commands):
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    codes, seconds = {}, {}
    for name, args, _, *until in commands:
        argv = [binary] + shlex.split(args.format(run="run", data=DATA))
        start = time.monotonic()
        with open(folder / f"{name}.log", "w") as log:
            codes[name] = run(argv, folder, env, log, until[0] if until else None)
        seconds[name] = time.monotonic() - start
    return codes, seconds


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
        parser.error("--only names a command that is not in the list: "
                     f"{sorted(only - {c[0] for c in commands})}")
    root = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="posbias-compare-"))
    binaries = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    runs = {side: run_all(b, root / side, commands) for side, b in binaries.items()}
    codes = {side: r[0] for side, r in runs.items()}
    differ = 0
    for name, _, outputs, *_ in commands:
        if codes["old"][name] != codes["new"][name] or codes["old"][name] != 0:
            print(f"{name}: exit {codes['old'][name]} (old) and {codes['new'][name]} (new); "
                  f"logs in {root}")
            differ += 1
            continue
        for out in outputs:
            rel = out.format(run="run")
            said = verdict(*(load(root / side / rel) for side in ("old", "new")))
            differ += said != "same"
            print(f"{name} {rel}: {said}")
    print("seconds (old, new): " + ", ".join(
        f"{name} {runs['old'][1][name]:.1f} {runs['new'][1][name]:.1f}" for name, *_ in commands))
    print(f"{differ} difference(s) in {len(commands)} commands; outputs in {root}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
