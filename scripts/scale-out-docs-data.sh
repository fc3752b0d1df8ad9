#!/usr/bin/env bash
# Writes the files docs/scale-out.md cites, on this machine:
# - equality.json: 2 data-parallel ranks × batch 32 against 1 process × batch 64 after 20 steps
#   (‖Δθ‖/‖θ‖ and the worst tensor's max|Δ|/max|θ|), a 1-process batch-32 run as the control
#   that must differ, and a 64-seed birth profile on 2 ranks against 1 process;
# - sweep.json/.csv and sweep.{svg,png,gp}: an example sweep (tiny Number models, 3 learning
#   rates × 3 seeds) planned, run with run-local.sh and collected, with seed intervals;
# - bench.txt comes from `make bench` (train_bench ranks), not from here.
# Usage: scripts/scale-out-docs-data.sh [path/to/posbias]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=$(realpath "${1:-build/posbias}")
data=docs/data/scale-out
mkdir -p "$data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tiny="--task number --layers 2 --d-model 32 --mlp 64 --rotary-dim 8 --steps 20 --warmup 5
  --dropout 0 --eval-every 10 --checkpoint-every 10 --eval-per-hop 16"
# shellcheck disable=SC2086
"$posbias" train $tiny --batch 64 --out "$work/one" 2>/dev/null
# shellcheck disable=SC2086
"$posbias" launch --nproc 2 -- train $tiny --batch 64 --out "$work/two" 2>/dev/null
# shellcheck disable=SC2086
"$posbias" train $tiny --batch 32 --out "$work/half" 2>/dev/null
birth="birth --arch gpt2 --layers 3 --d-model 32 --heads 2 --length 48 --seeds 64 --bootstrap 20"
# shellcheck disable=SC2086
"$posbias" $birth --json "$work/birth-one.json" 2>/dev/null
# shellcheck disable=SC2086
"$posbias" launch --nproc 2 -- $birth --json "$work/birth-two.json" 2>/dev/null

/usr/bin/python3 - "$work" "$data/equality.json" <<'EOF'
import array, json, math, struct, sys
work, out = sys.argv[1], sys.argv[2]

def tensors(path):
    b = open(path, "rb").read()
    n = struct.unpack("<Q", b[:8])[0]
    header = json.loads(b[8:8 + n])
    result = {}
    for name, v in header.items():
        if name == "__metadata__":
            continue
        start, end = v["data_offsets"]
        a = array.array("f")
        a.frombytes(b[8 + n + start:8 + n + end])
        result[name] = a
    return result

def difference(a_path, b_path):
    a, b = tensors(a_path), tensors(b_path)
    num = sum((x - y) ** 2 for k in a for x, y in zip(a[k], b[k]))
    den = sum(x * x for k in a for x in a[k])
    worst = max(max(abs(x - y) for x, y in zip(a[k], b[k])) / max(abs(x) for x in a[k]) for k in a)
    return {"norm_relative": math.sqrt(num / den), "worst_tensor_relative": worst, "tensors": len(a)}

one, two = (json.load(open(f"{work}/birth-{w}.json")) for w in ("one", "two"))
profile = max(abs(x - y) / abs(x) for ra, rb in zip(one["profile_seeds"], two["profile_seeds"])
              for x, y in zip(ra, rb))
json.dump({
    "training": {
        "steps": 20,
        "two_ranks_batch_32_vs_one_process_batch_64":
            difference(f"{work}/one/model.safetensors", f"{work}/two/model.safetensors"),
        "control_one_process_batch_32_vs_batch_64":
            difference(f"{work}/one/model.safetensors", f"{work}/half/model.safetensors"),
    },
    "birth": {
        "seeds": len(one["profile_seeds"]),
        "worst_relative_profile_difference": profile,
        "alpha": [one["alpha"], two["alpha"]],
        "seconds": [one["seconds"], two["seconds"]],
    },
}, open(out, "w"), indent=2)
EOF

cat >"$work/grid.json" <<'EOF'
{
  "command": ["train", "--task", "number", "--layers", "2", "--d-model", "64", "--mlp", "128",
              "--rotary-dim", "8", "--hops", "1", "--steps", "300", "--warmup", "30",
              "--eval-every", "100", "--checkpoint-every", "100", "--eval-per-hop", "64",
              "--out", "{run}/train"],
  "grid": {"--lr": [0.0003, 0.001, 0.003]},
  "seeds": [0, 1, 2],
  "resume": {"when": "{run}/train/train.json", "command": ["train", "--resume", "{run}/train"]},
  "result": "{run}/train/summary.json",
  "slurm": {"cpus_per_task": 1, "mem": "2G", "time": "00:20:00", "concurrency": 8}
}
EOF
cp "$work/grid.json" "$data/sweep-grid.json"
"$posbias" sweep plan "$work/grid.json" --out "$work/sweep"
OMP_NUM_THREADS=1 bash "$work/sweep/run-local.sh" --jobs 2 >"$data/sweep-status.txt"
"$posbias" sweep collect "$work/sweep" --metric metrics.final.1 --metric train_seconds \
  --json "$data/sweep.json" --csv "$data/sweep.csv" --plot "$data/sweep"
# The run directories are temporary: keep the paths out of the committed files.
sed -i "s|$work|SWEEP|g" "$data/sweep.json" "$data/sweep-status.txt"
