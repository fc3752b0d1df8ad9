#!/usr/bin/env python3
"""The retrieval bench (docs/retrieval.md, "The bench"): trains every configuration of
docs/data/retrieval/bench/grid-*.json over its seeds through `posbias sweep`, then measures
each trained run and summarises each configuration over its seeds.

  python3 scripts/kv-bench.py plan      # posbias sweep plan, one sweep per grid file
  python3 scripts/kv-bench.py train     # every run: seed 0 of every configuration first, then
                                        # the seeds of those whose seed 0 learned, then the rest
  python3 scripts/kv-bench.py measure   # eval by depth and length, influence, per trained run
  python3 scripts/kv-bench.py summary   # from DATA alone: seeds --eval and birth --colocate per
                                        # configuration, and DATA/summary.json
  python3 scripts/kv-bench.py all       # the four in order

`train` runs `posbias sweep run SWEEP --index I` (what run-local.sh and the Slurm array run;
done runs are skipped, killed ones resumed), JOBS at a time with OMP_NUM_THREADS=1, ordered by
seed so that every configuration has a seed early. A Slurm user runs
`sbatch SWEEPS/kv-bench-NAME/sweep.sbatch` for each grid instead, then `measure` and `summary`.
Options: --posbias PATH (build/posbias), --sweeps DIR (out/sweeps), --data DIR
(docs/data/retrieval/bench), --jobs N (2)."""
import argparse
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import sys

EVAL_DEPTHS = "0,10,20,30,40,50,60,70,80,90,100"
EVAL_COUNT = "100"
# One depth per pair at the training length (4 pairs at L = 32): round(d · 3 / 100) is 0, 1,
# 2, 3 for 0, 33, 67, 100, so no two depths share a pair (co-location compares depths).
PAIR_DEPTHS = "0,33,67,100"
PAIR_COUNT = "200"
INFLUENCE_INPUTS = "16"


def load(path):
    return json.loads(pathlib.Path(path).read_text())


def grids(data):
    return sorted(data.glob("grid-*.json"))


def sweep_dir(sweeps, grid):
    return sweeps / ("kv-bench-" + grid.stem[len("grid-"):])


def config_name(config):
    """A run's configuration: family, positional encoding, window, depth prior."""
    name = f"{config['arch']}-{config['pos']}"
    if config.get("window", 0):
        name += f"-window{config['window']}"
    if config.get("depth_prior", "uniform") != "uniform":
        name += "-" + config["depth_prior"]
    return name


def runs(args):
    """Every run of every planned sweep: (sweep dir, manifest run)."""
    out = []
    for grid in grids(args.data):
        sweep = sweep_dir(args.sweeps, grid)
        manifest = sweep / "manifest.json"
        if not manifest.exists():
            sys.exit(f"kv-bench: {manifest} is missing; run `kv-bench.py plan` first")
        out += [(sweep, run) for run in load(manifest)["runs"]]
    return out


def posbias(args, *argv):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    print("+ posbias " + " ".join(argv), flush=True)
    subprocess.run([args.posbias, *argv], check=True, env=env)


def plan(args):
    for grid in grids(args.data):
        posbias(args, "sweep", "plan", str(grid), "--out", str(sweep_dir(args.sweeps, grid)))


# The positional encoding `train` gives a family without --pos (the bench's families).
FAMILY_POS = {"qwen2": "rope", "gpt2": "learned"}


def command_config(command):
    """The configuration fields config_name reads, from a run's `train` command line."""
    flags = dict(zip(command[1::2], command[2::2])) if command[:1] == ["train"] else {}
    arch = flags.get("--arch")
    return {"arch": arch, "pos": flags.get("--pos", FAMILY_POS.get(arch)),
            "window": int(flags.get("--window", 0)),
            "depth_prior": flags.get("--depth-prior", "uniform"), "seed": flags.get("--seed")}


def measured_already(args, run):
    """A run whose results `measure` has copied into DATA (its run folder may be gone)."""
    config = command_config(run["command"])
    return (args.data / config_name(config) / f"s{config['seed']}-train.json").exists()


def learned_at_seed0(args):
    """Configurations whose seed 0 learned kv by the rule (DATA/summary.json): their other
    seeds train first, so that the first verdicts over seeds come early."""
    table = args.data / "summary.json"
    if not table.exists():
        return set()
    return {name for name, row in load(table)["configurations"].items()
            if 0 in row["seeds"] and row["learned_by_rule"][row["seeds"].index(0)]}


def train(args):
    first = learned_at_seed0(args)

    def priority(item):
        sweep, run = item
        name, seed = config_name(command_config(run["command"])), int(run["values"]["--seed"])
        return (0 if seed == 0 else 1 if name in first else 2, seed, str(sweep), run["index"])

    order = sorted((r for r in runs(args) if not measured_already(args, r[1])), key=priority)

    def one(item):
        sweep, run = item
        log = sweep / "logs" / f"run-{run['index']}.log"
        with open(log, "a") as f:
            code = subprocess.run([args.posbias, "sweep", "run", str(sweep), "--index",
                                   str(run["index"])], stdout=f, stderr=subprocess.STDOUT,
                                  env=dict(os.environ, OMP_NUM_THREADS="1")).returncode
        print(f"{sweep.name} run {run['index']} {run['values']}: exit {code}", flush=True)
        return code

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        codes = list(pool.map(one, order))
    if any(codes):
        sys.exit("kv-bench: some runs failed; see their logs")


def trained(args):
    """Every done run with its configuration name, seed and train folder."""
    for sweep, run in runs(args):
        train_dir = pathlib.Path(run["dir"]) / "train"
        if not (train_dir / "summary.json").exists():
            continue
        config = load(train_dir / "train.json")["config"]
        yield config_name(config), config, int(config["seed"]), train_dir


def measure(args):
    for name, config, seed, train_dir in trained(args):
        folder = args.data / name
        folder.mkdir(parents=True, exist_ok=True)
        stem = folder / f"s{seed}"
        for file, copy in (("metrics.jsonl", "metrics.jsonl"), ("summary.json", "summary.json"),
                           ("train.json", "train.json")):
            shutil.copyfile(train_dir / file, f"{stem}-{copy}")
        length = int(config["length"])
        # Learned positions have no table past the training length (+2): eval there refuses.
        lengths = [length] if config["pos"] == "learned" else [length, 2 * length, 4 * length]
        if not pathlib.Path(f"{stem}-eval.json").exists():
            posbias(args, "eval", "--run", str(train_dir), "--lengths",
                    ",".join(map(str, lengths)), "--depths", EVAL_DEPTHS, "--count", EVAL_COUNT,
                    "--json", f"{stem}-eval.json", "--csv", f"{stem}-eval.csv")
        if not pathlib.Path(f"{stem}-eval-pairs.json").exists():
            posbias(args, "eval", "--run", str(train_dir), "--lengths", str(length), "--depths",
                    PAIR_DEPTHS, "--count", PAIR_COUNT, "--json", f"{stem}-eval-pairs.json")
        if not pathlib.Path(f"{stem}-influence.json").exists():
            posbias(args, "birth", "--run", str(train_dir), "--inputs", "kv", "--target",
                    "answer", "--checkpoints", "all", "--depths", PAIR_DEPTHS, "--seeds",
                    INFLUENCE_INPUTS, "--json", f"{stem}-influence.json", "--csv",
                    f"{stem}-influence.csv")


def measured(args):
    """Every run copied into DATA by `measure`, read from DATA alone (the sweeps' run folders
    may be gone): configuration name, configuration and seed."""
    for folder in sorted(p for p in args.data.iterdir() if p.is_dir()):
        for file in sorted(folder.glob("s*-train.json")):
            config = load(file)["config"]
            if config_name(config) != folder.name:
                sys.exit(f"kv-bench: {file} is a {config_name(config)} run, not {folder.name}")
            yield folder.name, config, int(config["seed"])


def summary(args):
    configs = {}
    for name, config, seed in measured(args):
        configs.setdefault(name, {"config": config, "seeds": []})["seeds"].append(seed)
    rows = []
    for name, entry in sorted(configs.items()):
        folder = args.data / name
        seeds = sorted(s for s in entry["seeds"]
                       if pathlib.Path(folder / f"s{s}-influence.json").exists())
        stems = [folder / f"s{s}" for s in seeds]
        row = {"name": name, "seeds": seeds, "config": {k: entry["config"][k] for k in (
            "arch", "pos", "window", "depth_prior", "layers", "d_model", "heads", "mlp",
            "length", "steps", "lr", "batch")}}
        finals, seconds = [], []
        for stem in stems:
            lines = pathlib.Path(f"{stem}-metrics.jsonl").read_text().splitlines()
            last = json.loads(lines[-1])
            finals.append(last["acc"]["all"])
            seconds.append(last["train_seconds"])
            row.setdefault("learned_by_rule", []).append(last["acc"]["all"] >= 0.95)
        row["held_out_exact_match"] = finals
        row["train_seconds"] = seconds
        row["effective_length"] = [load(f"{stem}-eval.json")["effective_length"]
                                   for stem in stems]
        if stems:  # co-location with one seed has no interval; the file says n
            posbias(args, "birth", "--colocate", ",".join(f"{s}-influence.json" for s in stems),
                    "--accuracy", ",".join(f"{s}-eval-pairs.json" for s in stems), "--json",
                    str(folder / "colocation.json"), "--plot", str(folder / "colocation"))
            coloc = load(folder / "colocation.json")
            row["colocation"] = {k: coloc[k] for k in ("verdict", "spearman", "seeds_same_bin",
                                                       "accuracy_minimum", "influence_minimum")}
        if len(stems) >= 2:  # the U verdict over seeds needs two or more
            evals = [f"{stem}-eval.json" for stem in stems]
            posbias(args, "seeds", "--eval", *evals, "--json", str(folder / "seeds.json"),
                    "--csv", str(folder / "seeds.csv"), "--plot", str(folder / "seeds"))
            row["u_verdict"] = load(folder / "seeds.json").get("u_verdict")
        else:
            row["u_verdict_one_seed"] = load(f"{stems[0]}-eval.json")["u_verdict"]["pooled"] \
                if stems else None
        rows.append(row)
    # Keyed by name, so that a configuration's fields keep their path as others finish.
    table = {"configurations": {row.pop("name"): row for row in rows}}
    (args.data / "summary.json").write_text(json.dumps(table, indent=1) + "\n")
    print(f"kv-bench: {args.data / 'summary.json'}: {len(rows)} configurations")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=["plan", "train", "measure", "summary", "all"])
    parser.add_argument("--posbias", default="build/posbias")
    parser.add_argument("--sweeps", type=pathlib.Path, default=pathlib.Path("out/sweeps"))
    parser.add_argument("--data", type=pathlib.Path,
                        default=pathlib.Path("docs/data/retrieval/bench"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    steps = [plan, train, measure, summary] if args.step == "all" else [globals()[args.step]]
    for step in steps:
        step(args)


if __name__ == "__main__":
    main()
